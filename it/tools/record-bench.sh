#!/usr/bin/env bash
# What a version's catalog record costs a store: the same images stored through two warmed
# agents of one local grid, one with records (the default) and one without
# (-Dcairn.store.catalogRecords=false), in turns; wall s per `cairn store` (a new thin process per
# image, as a job runs it), and the record's own time and bytes from the agent's log.
#   ./mvnw -B -q -DskipTests package && it/tools/record-bench.sh ROUNDS IMAGE...
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: $0 ROUNDS IMAGE..." >&2; exit 2; }
ROUNDS=$1; shift
W=$(mktemp -d /tmp/record-bench.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
CAIRN="$ROOT/client-cli/target/cairn"
grid_up 8GiB
export CAIRN_LOG_LEVEL=DEBUG
agent_up
ln -s "$W/agent.sock" "$W/with.sock"
CAIRN_JAVA_OPTS=-Dcairn.store.catalogRecords=false agent_start without # on $W/without.sock
printf "round\timage\trecords\twall_s\n"
for r in $(seq "$ROUNDS"); do
  n=0
  for img in "$@"; do
    n=$((n + 1))
    for way in with without; do
      /usr/bin/time -f "%e" -o "$W/t" env CAIRN_LOG_LEVEL=WARN CAIRN_AGENT_SOCKET=$W/$way.sock "$CAIRN" store "$img" --app "$way-$r" --node n > /dev/null
      printf "%s\t%s\t%s\t%s\n" "$r" "$n" "$way" "$(cat "$W/t")"
    done
  done
done
echo "# the record's step in the agent with records, after each store answered (ms: tracker seal, naming, pieces, attach), and its size:"
grep -o "catalog record [0-9a-f]* ([0-9]* bytes sealed).*" "$W/agent.err" | sed "s/.*catalog record [0-9a-f]* (\([0-9]*\) bytes sealed) stored: /\1 bytes: /" || true
