#!/usr/bin/env bash
# Commit latency of a three-member tracker group on this machine ("a commit of 1,000 chunks,
# p99 < 100 ms"): start t1..t3, wait for a leader, then RUNS times `cairn benchmark commits` (WARMUP, default 20, uncounted commits, then VERSIONS
# versions of 1,000 new chunks each, one after another) through --tracker URL1,URL2,URL3.
#   ./mvnw -B -q -DskipTests package && it/tools/tracker-group/commits.sh [RUNS] [VERSIONS]   (TRACKER_JAR: another build of the tracker; TRACKER_JAVA_OPTS: JVM flags for the members;
#   the group with --tls-ca, HTTPS and mutual TLS between the members, as every group runs)
set -euo pipefail
cd "$(dirname "$0")/../../.."
RUNS=${1:-3}
VERSIONS=${2:-200}
DIR=$(mktemp -d /tmp/cairn-commits.XXXXXX)
trap 'pkill -f "cairn-tracker.jar --data $DIR" || true' EXIT
# shellcheck source=group-env.sh
. it/tools/tracker-group/group-env.sh
PEERS="t1=127.0.0.1:19721,t2=127.0.0.1:19722,t3=127.0.0.1:19723"
for i in 1 2 3; do
  # shellcheck disable=SC2086
  java ${TRACKER_JAVA_OPTS:-} -jar "${TRACKER_JAR:-tracker/target/cairn-tracker.jar}" --data "$DIR/t$i" --listen 127.0.0.1:1973$i --token-file "$DIR/token" \
    --peers "$PEERS" --id "t$i" "${TLS_ARGS[@]}" >> "$DIR/t$i.log" 2>&1 &
done
until curl -ks -m 1 $SCHEME://127.0.0.1:19731/api/v1/cluster 2>/dev/null | grep -q '"leader":"t'; do sleep 0.2; done
sleep 2
for r in $(seq 1 "$RUNS"); do
  java ${CLIENT_JAVA_OPTS:-} -jar client-cli/target/cairn.jar --tracker $SCHEME://127.0.0.1:19731,$SCHEME://127.0.0.1:19732,$SCHEME://127.0.0.1:19733 \
    --token-file "$DIR/token" benchmark commits --warmup "${WARMUP:-20}" --versions "$VERSIONS" --chunks 1000 --json
done
