#!/usr/bin/env bash
# The tracker's catalog at scale (docs/simulation.md, "The catalog at scale"): starts a lone tracker with TLS and
# --repair-grace 0s, then `cairn benchmark catalog`: HOLDERS simulated donors, commits of 1,000 new chunks each up to
# FILL chunks (commit p50/p99, the tracker's resident memory and data size at each of MILESTONES), then a fifth of the
# holders fail at once (time to DOWN, to the first and to every at-risk chunk queued, and whether the riskiest come first).
#   ./mvnw -B -q -DskipTests package && it/tools/catalog-scale.sh [FILL, default 10000000] [MILESTONES, default 1000000,FILL] [HOLDERS, default 300]
#   (TRACKER_JAR: another build of the tracker; TRACKER_JAVA_OPTS: JVM flags for the tracker, BENCH_JAVA_OPTS for the benchmark;
#   KEEP_LOGS=DIR: copy the tracker's log and its RocksDB LOG there at the end; extra arguments after the third go to the
#   benchmark, e.g. --json or --commit-times FILE)
set -euo pipefail
cd "$(dirname "$0")/../.."
FILL=${1:-10000000}
MILESTONES=${2:-1000000,$FILL}
HOLDERS=${3:-300}
shift $(( $# < 3 ? $# : 3 ))
DIR=$(mktemp -d /tmp/cairn-catalog.XXXXXX)
PIDS=()
keep_logs() {
  [ -n "${KEEP_LOGS:-}" ] || return 0
  mkdir -p "$KEEP_LOGS" && cp "$DIR/t1.log" "$KEEP_LOGS/tracker.log" && cp "$DIR/t1/db/LOG" "$KEEP_LOGS/rocksdb.LOG" || true
}
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; keep_logs; rm -rf "$DIR"' EXIT
# shellcheck source=tracker-group/group-env.sh
. it/tools/tracker-group/group-env.sh
# shellcheck disable=SC2086
java ${TRACKER_JAVA_OPTS:-} -jar "${TRACKER_JAR:-tracker/target/cairn-tracker.jar}" --data "$DIR/t1" --listen 127.0.0.1:19941 --token-file "$DIR/token" \
  --repair-grace 0s "${TLS_ARGS[@]}" >> "$DIR/t1.log" 2>&1 &
PIDS+=($!)
until [ "$(curl -ks -m 1 -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $BEARER" "$SCHEME://127.0.0.1:19941/api/v1/cluster")" = 200 ]; do
  kill -0 "${PIDS[0]}" 2>/dev/null || { cat "$DIR/t1.log" >&2; exit 1; }
  sleep 0.3
done
echo "tracker up (log in $DIR/t1.log)" >&2
# shellcheck disable=SC2086
java ${BENCH_JAVA_OPTS:-} -jar client-cli/target/cairn.jar --tracker "$SCHEME://127.0.0.1:19941" --token-file "$DIR/token" benchmark catalog \
  --holders "$HOLDERS" --fill "$FILL" --milestones "$MILESTONES" --tracker-pid "${PIDS[0]}" --tracker-data "$DIR/t1" "$@"
grep -E "WARN|ERROR" "$DIR/t1.log" | tail -5 >&2 || true
