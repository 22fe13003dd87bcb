#!/usr/bin/env bash
# The peers' durable writes for successor stores through a warmed agent: a local grid (tracker + 6
# peers at their defaults), three warm rounds of storing the images, then two measured rounds; prints the
# measured stores' wall seconds, the agent's and peers' CPU ticks over them, and the fragments the peers
# wrote per durable write (each a segment sync and a synced index write) over their whole lives.
# CLIENT_OPTS adds JVM flags to the agent (e.g. -Dcairn.store.lingerMillis=0 for an A/B).
#   ./mvnw -B -q -DskipTests package && it/tools/durable-writes.sh IMAGE...
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 IMAGE..." >&2; exit 2; }
W=$(mktemp -d /tmp/durable-writes.XXXX); PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
grid_up 8GiB
export CAIRN_JAVA_OPTS="${CLIENT_OPTS:-}"; agent_up 2>/dev/null; unset CAIRN_JAVA_OPTS
C=$ROOT/client-cli/target/cairn; export CAIRN_AGENT_SOCKET=$W/agent.sock
for r in 1 2 3; do for img in "$@"; do "$C" store "$img" --app a$r --node n > /dev/null 2>&1; done; done
a0=$(cpu_of $AGENT); p0=$(cpu_of "${PEERS[@]}"); st=""
for r in 4 5; do for img in "$@"; do
  /usr/bin/time -f "%e" -o "$W/t" "$C" store "$img" --app a$r --node n > /dev/null 2>&1; st="$st $(cat "$W/t")"
done; done
a1=$(cpu_of $AGENT); p1=$(cpu_of "${PEERS[@]}")
echo "measured stores (s):$st; CPU ticks (1/$TCK s): agent $((a1 - a0)), peers $((p1 - p0))"
kill "${PEERS[@]}"; wait "${PEERS[@]}" 2>/dev/null || true
cat "$W"/p?.out "$W"/p?.err 2>/dev/null | grep -o "wrote [0-9]* fragments ([0-9]* bytes) in [0-9]* durable writes" |
  awk '{f += $2; b += substr($4, 2); w += $7} END {printf "peers, whole lives: %d fragments, %.0f MB in %d durable writes (%.1f fragments, %.0f KB per write)\n", f, b / 1e6, w, f / w, b / w / 1e3}'
