#!/usr/bin/env bash
# Minutes between checkpoints: two agents on one grid, K with its defaults (it keeps the connections its stores
# used: --keep-connections 15m) and N with --keep-connections 0 (a peer closes a connection idle for 120 s, so N opens
# them again after each gap). Both store the series WARM times back to back first; then for each GAP in GAPS
# (seconds), after GAP idle each stores the next image (the order alternating between gaps), then each stores one more
# back to back (successors, while the series lasts). Per store: the agent, the image, wall ms, the six peers' CPU ticks and the serving agent's.
#   [GAPS="150 300"] [WARM=2] it/tools/gap-ab.sh IMAGE...
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: [GAPS=\"150 300\"] $0 IMAGE IMAGE..." >&2; exit 2; }
IMAGES=("$@")
W=$(mktemp -d /tmp/gap-ab.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
C="$ROOT/client-cli/target/cairn"
grid_up 16GiB
agent_up # K: the defaults, on $W/agent.sock
K=$AGENT
agent_start n --keep-connections 0 # N: on $W/n.sock
N=$AGENT_PID
declare -A next
store() { # store K|N LABEL: the agent's next image into its own app (a new app after each pass over the series)
  local who=$1 label=$2 sock pid i a0 p0 t0 t1
  if [ "$who" = K ]; then sock=$W/agent.sock; pid=$K; else sock=$W/n.sock; pid=$N; fi
  i=${next[$who]:-0}; next[$who]=$((i + 1))
  cat "${IMAGES[$((i % ${#IMAGES[@]}))]}" > /dev/null # just written: in the page cache (this VM drops files idle a minute)
  a0=$(cpu_of $pid); p0=$(cpu_of "${PEERS[@]}"); t0=$(date +%s%N)
  CAIRN_AGENT_SOCKET=$sock "$C" store "${IMAGES[$((i % ${#IMAGES[@]}))]}" --app "$who-$((i / ${#IMAGES[@]}))" --node n -q \
    > /dev/null 2> "$W/e" || { cat "$W/e" >&2; exit 1; }
  t1=$(date +%s%N)
  printf "%s\t%s\timage %s\twall %s ms\tpeers %s\tagent %s\n" "$label" "$who" $((i % ${#IMAGES[@]})) \
    $(((t1 - t0) / 1000000)) $(($(cpu_of "${PEERS[@]}") - p0)) $(($(cpu_of $pid) - a0))
}
for _ in $(seq "${WARM:-2}"); do for _ in "${IMAGES[@]}"; do store K warm > /dev/null; store N warm > /dev/null; done; done
store K warm > /dev/null; store N warm > /dev/null # a new app's first image: what follows are successors
first=K second=N
for g in ${GAPS:-150 300}; do
  sleep "$g"
  store $first "after ${g}s"; store $second "after ${g}s"
  store $second "back to back"; store $first "back to back"
  t=$first; first=$second; second=$t
done
