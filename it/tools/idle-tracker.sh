#!/usr/bin/env bash
# An idle tracker's CPU: a local grid (tracker + 6 peers, defaults) and an agent store every IMAGE under APPS apps
# (default 6), then the tracker's CPU-s over SECONDS_IDLE (default 60) with nothing happening. TRACKER_JAR compares builds.
#   ./mvnw -B -q -DskipTests package && it/tools/idle-tracker.sh IMAGE...
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 IMAGE..." >&2; exit 2; }
W=$(mktemp -d /tmp/idle-tracker.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
grid_up 16GiB
agent_up 2> /dev/null
fill_index idle "${APPS:-6}" "$@"
sleep 10 # the last commit's walk, the peers' settling
t0=$(cpu_of "$TRACKER"); sleep "${SECONDS_IDLE:-60}"; t1=$(cpu_of "$TRACKER")
chunks=$(index_chunks)
echo "tracker CPU-s over ${SECONDS_IDLE:-60} idle seconds: $(echo "scale=2; ($t1 - $t0) / $TCK" | bc) ($chunks chunks)"
