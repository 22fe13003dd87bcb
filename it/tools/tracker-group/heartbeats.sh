#!/usr/bin/env bash
# Heartbeats at a three-member tracker group's leader (">= 5,000 heartbeats/s sustained, p99 < 50 ms"):
# start t1..t3, register PEERS simulated peers with `cairn benchmark heartbeats`, then wrk paced (CONNS, default 56, connections,
# each one heartbeat every 10 ms plus its answer) at the leader for SECONDS.
#   ./mvnw -B -q -DskipTests package && it/tools/tracker-group/heartbeats.sh [SECONDS]   (needs wrk; --tls-ca, HTTPS)
set -euo pipefail
cd "$(dirname "$0")/../../.."
SECONDS_=${1:-30}
PEERS=${PEERS:-2000}
DIR=$(mktemp -d /tmp/cairn-hb.XXXXXX)
trap 'pkill -f "cairn-tracker.jar --data $DIR" || true' EXIT
# shellcheck source=group-env.sh
. it/tools/tracker-group/group-env.sh
MEMBERS="t1=127.0.0.1:19821,t2=127.0.0.1:19822,t3=127.0.0.1:19823"
for i in 1 2 3; do
  java -jar tracker/target/cairn-tracker.jar --data "$DIR/t$i" --listen 127.0.0.1:1983$i --token-file "$DIR/token" \
    --peers "$MEMBERS" --id "t$i" "${TLS_ARGS[@]}" >> "$DIR/t$i.log" 2>&1 &
done
LEADER=""
until [ -n "$LEADER" ]; do
  sleep 0.3
  LEADER=$(curl -ks -m 1 "$SCHEME://127.0.0.1:19831/api/v1/cluster" | grep -o '"leader":"t[0-9]"' | grep -o 't[0-9]' || true)
done
URL="$SCHEME://127.0.0.1:1983${LEADER#t}"
until [ "$(curl -ks -m 1 -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $BEARER" "$URL/api/v1/peers")" = 200 ]; do sleep 0.3; done
echo "leader $LEADER at $URL" >&2
java -jar client-cli/target/cairn.jar --tracker "$URL" --token-file "$DIR/token" benchmark heartbeats --peers "$PEERS" --rate 2000 \
  --seconds 5 --json > "$DIR/register.json"
PEERS=$PEERS TOKEN=$BEARER wrk -t1 -c"${CONNS:-56}" -d"${SECONDS_}s" --latency -s it/tools/heartbeat-load/hb-paced.lua "$URL"
