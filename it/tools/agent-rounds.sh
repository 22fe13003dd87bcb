#!/usr/bin/env bash
# An agent's JIT flags compared over its life (docs/benchmarks/journal.md, "Where the warm agent's and the peers' CPU goes
# now"): one local grid; for each OPTS given, an agent started through the launcher with CAIRN_JAVA_OPTS=OPTS, then
# ROUNDS rounds of every IMAGE stored through it (one `cairn` process each, a new app per round) and the last fetched.
# Per round: the agent's compiler threads' CPU, its live threads' CPU, each store's wall ms; per variant the means of
# rounds 1-3 and 4-ROUNDS. Give the JVM's defaults back as -XX:CompileThresholdScaling=1 (an empty OPTS is skipped).
#   ./mvnw -B -q -DskipTests package && ROUNDS=12 it/tools/agent-rounds.sh '-XX:CompileThresholdScaling=1' \
#     '-XX:CompileThresholdScaling=3' -- IMAGE...
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
VARIANTS=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do VARIANTS+=("$1"); shift; done
[ $# -ge 2 ] && [ ${#VARIANTS[@]} -ge 1 ] || { echo "usage: ROUNDS=N $0 OPTS... -- IMAGE..." >&2; exit 2; }
shift
ROUNDS=${ROUNDS:-12}
W=$(mktemp -d /tmp/agent-rounds.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
CAIRN="$ROOT/client-cli/target/cairn"
grid_up 16GiB
# compiler threads' ticks and all live threads' ticks of PID
threads_cpu() {
  local c=0 t=0 d n v
  for d in /proc/"$1"/task/*; do
    n=$(cat "$d/comm" 2>/dev/null) || continue
    v=$(awk '{print $14 + $15}' "$d/stat" 2>/dev/null) || continue
    t=$((t + v))
    case $n in C1*|C2*) c=$((c + v)) ;; esac
  done
  echo "$c $t"
}
ms_per_tick=$((1000 / TCK))
for opts in "${VARIANTS[@]}"; do
  CAIRN_JAVA_OPTS=$opts agent_up 2> /dev/null
  out=$W/rounds.txt; : > "$out"; tag=$RANDOM
  for r in $(seq "$ROUNDS"); do
    read -r c0 t0 < <(threads_cpu "$AGENT")
    walls=""
    for img in "$@"; do
      s0=$(date +%s%N)
      CAIRN_AGENT_SOCKET=$W/agent.sock "$CAIRN" store "$img" --app "v$tag-$r" --node n > /dev/null 2> "$W/err" \
        || { cat "$W/err" >&2; exit 1; }
      walls="$walls $((($(date +%s%N) - s0) / 1000000))"
    done
    CAIRN_AGENT_SOCKET=$W/agent.sock "$CAIRN" fetch --app "v$tag-$r" --node n -o "$W/fetched" > /dev/null 2> "$W/err" \
      || { cat "$W/err" >&2; exit 1; }
    rm -f "$W/fetched"
    read -r c1 t1 < <(threads_cpu "$AGENT")
    echo "round $r: compiler $(((c1 - c0) * ms_per_tick)) ms; cpu $(((t1 - t0) * ms_per_tick)) ms; store ms:$walls" | tee -a "$out"
  done
  awk -v opts="$opts" -v n="$ROUNDS" '
    { split($0, a, "store ms:"); k = split(a[2], w, " "); comp = $4
      g = (NR <= 3) ? 1 : 2; cs[g] += comp; rs[g]++; fs[g] += w[1]
      for (i = 2; i <= k; i++) { ss[g] += w[i]; sn[g]++ } }
    END { for (g = 1; g <= 2; g++) if (rs[g] > 0)
      printf "%s, rounds %s: compiler %.0f ms/round, first image %.0f ms, successors %.0f ms\n", opts,
        (g == 1 ? "1-3" : "4-" n), cs[g] / rs[g], fs[g] / rs[g], (sn[g] ? ss[g] / sn[g] : 0) }' "$out"
  kill "$AGENT"; wait "$AGENT" 2> /dev/null || true
  rm -f "$W/agent.sock"
done
