#!/usr/bin/env bash
# The job's path: one `cairn` process per checkpoint, as a job script runs it, with and without
# a resident `cairn agent`, beside `borg create` / `borg extract` on the same images in the same run.
# A local grid (tracker + 6 peers at their defaults, roles), the client token, default store settings.
# Per command: wall s, CPU-s of the command's process, of the agent, of the peers and of the tracker
# (from /proc, during the command and 1 s after), and the machine's steal time in that window (CPU the hypervisor gave
# to other guests: a slow command with steal was slowed from outside), and the wall ms of a fixed calibration load
# (sha256sum of 16 MiB in the page cache) just before and just after the window: the same work, so a slow command
# beside a slow calibration ran on a slow machine (a neighbour on the physical core shows as no steal).
# Then the latest image is fetched each way.
# GRID_WARM (default 3): stores and fetches of the images under another app first, one process each, so the
# tracker and peers have served before, as a grid that has run for a while has (0: a grid started just now).
# AGENT_WARM (default 0): the same for the agent, in rounds of the whole series (see below).
# KEEP_LOGS=DIR: keeps the processes' logs (CAIRN_LOG_LEVEL=debug makes every cairn process log its phases).
# SYNC=1: `sync` before each command (outside its window): the writes of the commands before it are on disk, as a job's
# previous checkpoint's are after minutes of computing; without it they are written back during the next commands.
# GAP=SECONDS: the machine idles that long before each image's commands (and before the fetches), as a job computes
# between checkpoints: the agent's, peers' and tracker's connections, JIT and caches then have as long to go cold.
#   ./mvnw -B -q -DskipTests package && it/tools/job-bench.sh IMAGE...
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 IMAGE..." >&2; exit 2; }
W=$(mktemp -d /tmp/job-bench.XXXX)
PIDS=()
# KEEP_LOGS=DIR: the agent's, tracker's and peers' logs copied there at the end (the scratch directory goes)
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true
  if [ -n "${KEEP_LOGS:-}" ]; then mkdir -p "$KEEP_LOGS" && cp "$W"/*.err "$W"/*.out "$KEEP_LOGS"/ 2>/dev/null || true; fi
  rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
CAIRN="$ROOT/client-cli/target/cairn"
secs() { echo "scale=2; $1 / $TCK" | bc; }
grid_up 8GiB
export CAIRN_KEY_DIR=$W/keys
C=(--tracker "$URL" --token-file "$W/client")
n=0
for img in "$@"; do
  [ "$n" -lt "${GRID_WARM:-3}" ] || break
  n=$((n + 1)); "$CAIRN" "${C[@]}" store "$img" --app grid-warmup --node n > /dev/null 2> "$W/warm.err" || { cat "$W/warm.err" >&2; exit 1; }
  "$CAIRN" "${C[@]}" fetch --app grid-warmup --node n -o "$W/warm.out" > /dev/null 2> "$W/warm.err" || { cat "$W/warm.err" >&2; exit 1; }
done
rm -f "$W/warm.out"
agent_up
# AGENT_WARM (default 0): rounds of the whole series stored (and its last image fetched) through the agent under other
# apps first, as an agent that has served a job for a while has (0: an agent started just before the job)
for r in $(seq "${AGENT_WARM:-0}"); do
  for img in "$@"; do
    CAIRN_AGENT_SOCKET=$W/agent.sock "$CAIRN" store "$img" --app agent-warmup-$r --node n > /dev/null 2> "$W/warm.err" || { cat "$W/warm.err" >&2; exit 1; }
  done
  CAIRN_AGENT_SOCKET=$W/agent.sock "$CAIRN" fetch --app agent-warmup-$r --node n -o "$W/warm.out" > /dev/null 2> "$W/warm.err" || { cat "$W/warm.err" >&2; exit 1; }
done
rm -f "$W/warm.out"
borg init --encryption none "$W/borg" > /dev/null 2>&1

printf "image\tway\top\twall_s\tcmd_cpu_s\tagent_cpu_s\tpeers_cpu_s\ttracker_cpu_s\tsteal_s\tcalib_before_ms\tcalib_after_ms\n"
steal() { awk '$1 == "cpu" {print $9; exit}' /proc/stat; }
head -c 16777216 /dev/urandom > "$W/calib"
sha256sum "$W/calib" > /dev/null
calib() { local t0 t1; t0=$(date +%s%N); sha256sum "$W/calib" > /dev/null; t1=$(date +%s%N); echo $(((t1 - t0) / 1000000)); }
run() { # run IMAGE WAY OP COMMAND...
  local img=$1 way=$2 op=$3; shift 3
  local a0 p0 t0 a1 p1 t1 s0 s1 c0 c1
  if [ -n "${SYNC:-}" ]; then sync; fi
  c0=$(calib)
  a0=$(cpu_of $AGENT); p0=$(cpu_of "${PEERS[@]}"); t0=$(cpu_of $TRACKER); s0=$(steal)
  /usr/bin/time -f "%e %U %S" -o "$W/t" "$@" > /dev/null 2> "$W/cmd.err" || { cat "$W/cmd.err" >&2; exit 1; }
  sleep 1
  a1=$(cpu_of $AGENT); p1=$(cpu_of "${PEERS[@]}"); t1=$(cpu_of $TRACKER); s1=$(steal)
  c1=$(calib)
  read -r e u s < "$W/t"
  printf "%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s\t%s\n" "$img" "$way" "$op" "$e" "$(echo "$u + $s" | bc)" "$(secs $((a1 - a0)))" \
    "$(secs $((p1 - p0)))" "$(secs $((t1 - t0)))" "$(secs $((s1 - s0)))" "$c0" "$c1"
}
n=0
for img in "$@"; do
  n=$((n + 1))
  sleep "${GAP:-0}"
  cat "$img" > /dev/null # a checkpoint just written is in the page cache (this VM drops files idle for a minute)
  run "$n" borg store borg create --compression lz4 "$W/borg::i$n" "$img"
  CAIRN_AGENT_SOCKET=$W/agent.sock run "$n" agent store "$CAIRN" store "$img" --app agent --node n
  run "$n" process store "$CAIRN" "${C[@]}" store "$img" --app proc --node n
  CAIRN_AGENT_SOCKET=$W/agent.sock run "$n" async store "$CAIRN" store "$img" --app async --node n --async
  CAIRN_AGENT_SOCKET=$W/agent.sock run "$n" async wait "$CAIRN" wait --app async --node n
done
last=$#
sleep "${GAP:-0}"
run "$last" borg fetch sh -c "borg extract --stdout '$W/borg::i$last' > '$W/out-borg'"
CAIRN_AGENT_SOCKET=$W/agent.sock run "$last" agent fetch "$CAIRN" fetch --app agent --node n -o "$W/out-agent"
run "$last" process fetch "$CAIRN" "${C[@]}" fetch --app proc --node n -o "$W/out-proc"
for f in borg agent proc; do cmp -s "${!last}" "$W/out-$f" || { echo "fetch ($f) differs from the image" >&2; exit 1; }; done
CAIRN_AGENT_SOCKET=$W/agent.sock run "$last" agent versions "$CAIRN" versions --app agent --node n
