#!/usr/bin/env bash
# Peers' CPU per GB of pieces ingested (target <= 1.5 CPU-s/GB, pessimistic writes): a local grid
# (tracker + 6 peers started as a donor starts them, `peer/target/cairn-peer` with its defaults; PEER_JAR=peer/target/cairn-peer.jar
# for the jar with the JVM's default flags),
# a warmed `cairn agent`, WARM stores of random data to warm the peers, then ROUNDS stores of SIZE
# random MiB each through the agent (default settings: encrypted). Per store: wall s, the peers' CPU-s
# (from /proc, during the store and 1 s after), the version's stored bytes (`versions --json`: the
# pieces' bytes), CPU-s per GB of pieces.
#   ./mvnw -B -q -DskipTests package && it/tools/ingest-bench.sh [SIZE_MiB] [ROUNDS] [STORE_FLAGS...]
# PEER_JAVA_OPTS adds JVM flags to the peers (a profiler, say).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SIZE=${1:-512}; ROUNDS=${2:-3}; shift $(($# >= 2 ? 2 : $#))
WARM=${WARM:-3}
W=$(mktemp -d /tmp/ingest-bench.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
grid_up 16GiB
agent_up
export CAIRN_AGENT_SOCKET=$W/agent.sock
head -c $((SIZE << 20)) /dev/urandom > "$W/data"
for i in $(seq "$WARM"); do "$ROOT/client-cli/target/cairn" store "$W/data" --app "warm$i" --node n "$@" > /dev/null; done
printf "round\twall_s\tpeers_cpu_s\tof_it_kernel_s\tpieces_MB\tcpu_s_per_GB\ttracker_cpu_s\n"
# a thread may end between listing and reading: skipped
thread_ticks() { local p t; for p in "${PEERS[@]}"; do for t in /proc/$p/task/*; do { echo "$(tr ' ' _ < "$t/comm") $(awk '{print $14 + $15}' "$t/stat")"; } 2>/dev/null || true; done; done; }
thread_ticks > "$W/threads0"
for r in $(seq "$ROUNDS"); do
  head -c $((SIZE << 20)) /dev/urandom > "$W/data"
  c0=$(cpu_of "${PEERS[@]}"); s0=$(sys_of "${PEERS[@]}"); t0=$(cpu_of "$TRACKER"); m0=$(awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat)
  /usr/bin/time -f "%e" -o "$W/t" "$ROOT/client-cli/target/cairn" store "$W/data" --app "round$r" --node n "$@" > /dev/null
  sleep 1
  c1=$(cpu_of "${PEERS[@]}"); s1=$(sys_of "${PEERS[@]}"); t1=$(cpu_of "$TRACKER"); m1=$(awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat)
  echo "machine busy $(echo "scale=2; ($m1 - $m0) / $TCK" | bc) CPU-s" >&2
  pieces=$("$ROOT/client-cli/target/cairn" versions --app "round$r" --node n --json |
    python3 -c 'import json, sys; print(json.load(sys.stdin)[-1]["storedBytes"])')
  cpu=$(echo "scale=2; ($c1 - $c0) / $TCK" | bc)
  printf "%s\t%s\t%s\t%s\t%s\t%.2f\t%s\n" "$r" "$(cat "$W/t")" "$cpu" "$(echo "scale=2; ($s1 - $s0) / $TCK" | bc)" "$((pieces / 1000000))" "$(echo "$cpu * 1000000000 / $pieces" | bc -l)" "$(echo "scale=2; ($t1 - $t0) / $TCK" | bc)"
done
thread_ticks | awk 'NR == FNR {a[$1] -= $2; next} {a[$1] += $2} END {for (k in a) print k, a[k]}' "$W/threads0" - > "$W/threads1"
if [ -n "${THREADS:-}" ]; then # THREADS=FILE: CPU-s per thread name over the measured rounds, summed over the peers
  awk -v tck="$TCK" '{a[$1] += $2} END {for (k in a) printf "%8.2f %s\n", a[k] / tck, k}' "$W/threads1" | sort -rn > "$THREADS"
fi
# the peers say at a graceful stop how many durable writes (PUTs: a segment sync + a synced index write each) they made
kill "${PEERS[@]}" 2>/dev/null || true
for p in "${PEERS[@]}"; do while kill -0 "$p" 2>/dev/null; do sleep 0.1; done; done
cat "$W"/p?.out "$W"/p?.err 2>/dev/null | grep -o "wrote [0-9]* fragments ([0-9]* bytes) in [0-9]* durable writes" |
  awk '{f += $2; b += substr($4, 2); w += $7} END {if (w) printf "peers, whole lives: %d fragments, %.0f MB in %d durable writes (%.0f KB per write)\n", f, b / 1e6, w, b / w / 1e3 > "/dev/stderr"}'
