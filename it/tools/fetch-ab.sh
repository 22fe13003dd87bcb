#!/usr/bin/env bash
# A/B of `cairn fetch -o` through two agents on one local grid: agent A runs with CAIRN_JAVA_OPTS=$A_OPTS, agent B with
# $B_OPTS (JVM flags or -D settings, e.g. A_OPTS=-Dcairn.writebackBytes=0); it/tools/agent-ab.sh compares two builds. The images are stored as one app through A,
# fetched WARM (4) times each way, then ROUNDS (10) fetches alternate between the agents, each after a sync and a
# second's rest; every fetch is compared with the last image. Prints wall s per fetch and the mean per agent.
#   ./mvnw -B -q -DskipTests package && it/tools/fetch-ab.sh IMAGE...
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 IMAGE..." >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d /tmp/fetch-ab.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
CAIRN="$ROOT/client-cli/target/cairn"
grid_up 8GiB
export CAIRN_KEY_DIR=$W/keys
for x in A B; do
  o=${x}_OPTS
  CAIRN_JAVA_OPTS="${!o:-}" agent_start "$x" # on $W/$x.sock
done
for img in "$@"; do CAIRN_AGENT_SOCKET=$W/A.sock "$CAIRN" store "$img" --app f --node n > /dev/null; done
last=${!#}
for r in $(seq ${WARM:-4}); do for x in A B; do CAIRN_AGENT_SOCKET=$W/$x.sock "$CAIRN" fetch --app f --node n -o $W/out >/dev/null; done; done
for r in $(seq ${ROUNDS:-10}); do
  for x in A B; do
    sync; sleep 1
    /usr/bin/time -f "%e" -o $W/t env CAIRN_AGENT_SOCKET=$W/$x.sock "$CAIRN" fetch --app f --node n -o $W/out$x >/dev/null
    printf "%s\t%s\n" "$x" "$(cat $W/t)"
    cmp -s "$last" $W/out$x || { echo differs; exit 1; }
  done
done | tee $W/res
for x in A B; do awk -v x=$x '$1==x{s+=$2;n++} END{printf "%s mean %.3f s (n=%d)\n", x, s/n, n}' $W/res; done
