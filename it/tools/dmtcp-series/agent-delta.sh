#!/usr/bin/env bash
# Stores of a DMTCP series (series.sh OUT) through a warmed `cairn agent`, one `cairn store` process
# per image, with and without --delta (alternating which goes first), code:4+2: wall seconds and the
# agent's and the six peers' CPU per store (from /proc), then a fetch of the last image each way.
#   ./mvnw -B -q -DskipTests package && it/tools/dmtcp-series/agent-delta.sh OUT
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
imgs=${1:?usage: agent-delta.sh OUT}/imgs
W=$(mktemp -d /tmp/agent-delta.XXXX); PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
. "$ROOT/it/tools/local-grid.sh"
grid_up 8GiB
agent_up
export CAIRN_AGENT_SOCKET=$W/agent.sock
C="$ROOT/client-cli/target/cairn --tracker $URL --token-file $W/client"
for i in 0 1 2 3 4 5; do
  line="img-$i"
  order="on off"; [ $((i % 2)) = 1 ] && order="off on"
  for d in $order; do
    t0=$(date +%s.%N); a0=$(cpu_of "$AGENT"); p0=$(cpu_of "${PEERS[@]}")
    $C store "$imgs/img-$i.dmtcp" --app "a-$d" --node n0 --redundancy code:4+2 --delta "$d" > /dev/null 2> "$W/err" || cat "$W/err"
    t1=$(date +%s.%N); sleep 1
    line="$line | delta $d: $(echo "$t1 - $t0" | bc | cut -c1-5) s, agent $(( ($(cpu_of "$AGENT") - a0) * 100 / TCK ))cs, peers $(( ($(cpu_of "${PEERS[@]}") - p0) * 100 / TCK ))cs"
  done
  echo "$line"
done
for d in off on off on; do
  t0=$(date +%s.%N); $C fetch --app "a-$d" --node n0 -o "$W/out" > /dev/null 2>&1; t1=$(date +%s.%N)
  cmp -s "$W/out" "$imgs/img-5.dmtcp" && echo "fetch delta $d: $(echo "$t1 - $t0" | bc | cut -c1-5) s, identical"
done
