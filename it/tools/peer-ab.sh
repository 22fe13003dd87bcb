#!/usr/bin/env bash
# Two peer settings side by side in one grid (peers' CPU per GB of pieces ingested): peers 1-3 run with
# PEER_JAVA_OPTS (A), peers 4-6 with PEER_B_JAVA_OPTS and/or through PEER_B_LAUNCHER (B: another build's
# peer/target/cairn-peer, built where it stays; PEER_LAUNCHER likewise for A). Same load, same minutes, same kernel:
# this VM's kernel time moves between runs far more than between A and B. As ingest-bench.sh: a warmed agent, WARM stores of random data, then
# ROUNDS stores of SIZE MiB (encrypted; without STORE_FLAGS `--redundancy code:4+2`, a piece of every chunk on every
# peer, so both sides ingest the same bytes: with the default 3+2 each chunk leaves one peer out and one side holds 2
# of every 5 pieces, which puts its fixed costs on fewer bytes); per round and side, the peers' CPU-s (from /proc,
# during the store and 1 s after), the bytes their data directories grew by, CPU-s per GB.
# IMAGE=FILE stores that file instead (each round into a new app: a first image, as a job's first checkpoint).
#   PEER_B_JAVA_OPTS=-Dsome.flag=x it/tools/peer-ab.sh [SIZE_MiB] [ROUNDS] [STORE_FLAGS...]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SIZE=${1:-512}; ROUNDS=${2:-4}; shift $(($# >= 2 ? 2 : $#))
if [ $# = 0 ]; then set -- --redundancy code:4+2; fi
WARM=${WARM:-3}
if [ -z "${PEER_B_JAVA_OPTS+x}" ] && [ -z "${PEER_B_LAUNCHER:-}" ]; then
  echo "set PEER_B_JAVA_OPTS and/or PEER_B_LAUNCHER (B); PEER_JAVA_OPTS is A" >&2; exit 2
fi
W=$(mktemp -d /tmp/peer-ab.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
grid_up 16GiB
agent_up
export CAIRN_AGENT_SOCKET=$W/agent.sock
A=("${PEERS[@]:0:3}"); B=("${PEERS[@]:3:3}")
head -c $((SIZE << 20)) /dev/urandom > "$W/data"
# store FILE APP FLAGS...: through the agent; on failure the CLI's stderr and exit
store() { "$ROOT/client-cli/target/cairn" store "$1" --app "$2" --node n "${@:3}" > /dev/null 2> "$W/err" || { cat "$W/err" >&2; exit 1; }; }
for i in $(seq "$WARM"); do store "$W/data" "warm$i" "$@"; done
bytes_of() { local sum=0 i; for i in "$@"; do sum=$((sum + $(du -sb "$W/p$i" | cut -f1))); done; echo "$sum"; }
printf "round\twall_s\tA_cpu_s\tA_MB\tA_cpu_s_per_GB\tB_cpu_s\tB_MB\tB_cpu_s_per_GB\n"
ta=0; tb=0; ba=0; bb=0
for r in $(seq "$ROUNDS"); do
  if [ -n "${IMAGE:-}" ]; then ln -sf "$(realpath "$IMAGE")" "$W/data"; else head -c $((SIZE << 20)) /dev/urandom > "$W/data"; fi
  a0=$(cpu_of "${A[@]}"); b0=$(cpu_of "${B[@]}"); ya0=$(bytes_of 1 2 3); yb0=$(bytes_of 4 5 6)
  start=$(date +%s.%N); store "$W/data" "round$r" "$@"; end=$(date +%s.%N)
  sleep 1
  a1=$(cpu_of "${A[@]}"); b1=$(cpu_of "${B[@]}"); ya1=$(bytes_of 1 2 3); yb1=$(bytes_of 4 5 6)
  da=$((a1 - a0)); db=$((b1 - b0)); yA=$((ya1 - ya0)); yB=$((yb1 - yb0))
  ta=$((ta + da)); tb=$((tb + db)); ba=$((ba + yA)); bb=$((bb + yB))
  printf "%s\t%s\t%.2f\t%d\t%.2f\t%.2f\t%d\t%.2f\n" "$r" "$(printf "%.2f" "$(echo "$end - $start" | bc)")" "$(echo "$da / $TCK" | bc -l)" $((yA / 1000000)) \
    "$(echo "$da / $TCK * 1000000000 / $yA" | bc -l)" "$(echo "$db / $TCK" | bc -l)" $((yB / 1000000)) "$(echo "$db / $TCK * 1000000000 / $yB" | bc -l)"
done
printf "all\t\t%.2f\t%d\t%.2f\t%.2f\t%d\t%.2f\n" "$(echo "$ta / $TCK" | bc -l)" $((ba / 1000000)) "$(echo "$ta / $TCK * 1000000000 / $ba" | bc -l)" \
  "$(echo "$tb / $TCK" | bc -l)" $((bb / 1000000)) "$(echo "$tb / $TCK * 1000000000 / $bb" | bc -l)"
