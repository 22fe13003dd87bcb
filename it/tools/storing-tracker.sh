#!/usr/bin/env bash
# The tracker's CPU while a job stores (its repair scan every 2 s meets a catalog that changes at every commit):
# a local grid (tracker + 6 peers, defaults) and an agent; every IMAGE stored under APPS apps (default 6) to
# fill the index, then ROUNDS (default 3) more rounds of the series under new apps, one store after another,
# with the tracker's CPU-s over those stores (and 2 s after). TRACKER_JAR compares builds.
#   ./mvnw -B -q -DskipTests package && it/tools/storing-tracker.sh IMAGE...
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 IMAGE..." >&2; exit 2; }
W=$(mktemp -d /tmp/storing-tracker.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
grid_up 16GiB
agent_up 2> /dev/null
fill_index fill "${APPS:-6}" "$@"
sleep 5
chunks=$(index_chunks)
# the repair scan's counters (cairn_repair_walks_total, cairn_repair_folds_total)
scans() { curl -s -H "Authorization: Bearer $(cat "$W/client")" "$URL/metrics" | awk '/^cairn_repair_(walks|folds)_total/{printf "%s ", $2}'; }
before=$(scans)
n=0
t0=$(cpu_of "$TRACKER"); s0=$(date +%s%N)
for r in $(seq "${ROUNDS:-3}"); do
  for img in "$@"; do agent_store "$img" "measured$r"; n=$((n + 1)); done
done
s1=$(date +%s%N); sleep 2; t1=$(cpu_of "$TRACKER")
after=$(scans)
echo "tracker CPU-s over $n stores ($(echo "scale=1; ($s1 - $s0) / 1000000000" | bc) s) into an index of $chunks chunks: $(echo "scale=2; ($t1 - $t0) / $TCK" | bc), $(echo "scale=3; ($t1 - $t0) / $TCK / $n" | bc) per store; repair scans (walks folds) $before-> $after"
