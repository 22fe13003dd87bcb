#!/usr/bin/env bash
# Two agents' JVM flags compared store by store (docs/benchmarks/journal.md, "Where the agent's extra CPU after a gap went"):
# one local grid, agent A started through the launcher with CAIRN_JAVA_OPTS=$A_OPTS (default: none), agent B with
# $B_OPTS; ROUNDS rounds of the series, each agent storing every image into its own app per round, in turns (the order
# alternating per round), each image read into the page cache first. Per store (TSV): the agent, round, image, wall ms,
# the serving agent's user and system ticks and minor page faults during the store and 0.5 s after, its resident KiB.
#   ./mvnw -B -q -DskipTests package && B_OPTS="-Xms1g -XX:+AlwaysPreTouch" ROUNDS=8 it/tools/heap-ab.sh IMAGE...
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: B_OPTS=... [A_OPTS=...] [ROUNDS=8] $0 IMAGE IMAGE..." >&2; exit 2; }
IMAGES=("$@")
W=$(mktemp -d /tmp/heap-ab.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
C="$ROOT/client-cli/target/cairn"
grid_up 16GiB
CAIRN_JAVA_OPTS="${A_OPTS:-}" agent_start A # on $W/A.sock
A=$AGENT_PID
CAIRN_JAVA_OPTS="$B_OPTS" agent_start B
B=$AGENT_PID
f() { awk '{print $14, $15, $10}' /proc/$1/stat; }
st() { local who=$1 r=$2 k=$3 pid img u0 s0 m0 u1 s1 m1 w0 w1
  pid=${!who}; img=${IMAGES[$k]}
  cat "$img" > /dev/null
  read -r u0 s0 m0 < <(f $pid); w0=$(date +%s%N)
  CAIRN_AGENT_SOCKET=$W/$who.sock "$C" store "$img" --app "$who-$r" --node n -q > /dev/null 2> "$W/e" || { cat "$W/e" >&2; exit 1; }
  w1=$(date +%s%N); sleep 0.5; read -r u1 s1 m1 < <(f $pid)
  printf "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\n" "$who" "$r" "$k" $(((w1-w0)/1000000)) $((u1-u0)) $((s1-s0)) $((m1-m0)) "$(awk '/VmRSS/{print $2}' /proc/$pid/status)"
}
printf "agent\tround\timage\twall_ms\tuser\tsys\tminflt\trss_kb\n"
for r in $(seq "${ROUNDS:-8}"); do
  for k in $(seq 0 $((${#IMAGES[@]} - 1))); do
    if [ $((r % 2)) = 1 ]; then st A $r $k; st B $r $k; else st B $r $k; st A $r $k; fi
  done
done
