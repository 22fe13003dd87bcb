# Sourced by the tracker-group scripts: in $DIR, an admin token (BEARER: its value), the group's CA
# (cairn-tracker ca create; members refuse to start without it), the token pinning it, SCHEME=https
# and TLS_ARGS for each member.
head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=' | head -c 43 | sed 's/^/ctk1_0000000000000000_/' > "$DIR/token"
BEARER=$(cat "$DIR/token")
PIN=$(java -jar "${TRACKER_JAR:-tracker/target/cairn-tracker.jar}" ca create --out "$DIR/ca" 2>/dev/null)
sed -i "s/\$/#sha256:$PIN/" "$DIR/token"
SCHEME=https
TLS_ARGS=(--tls-ca "$DIR/ca")
