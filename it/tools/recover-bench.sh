#!/usr/bin/env bash
# How long `cairn-tracker recover --from-peers` takes: a local grid (tracker + 6 peers at their
# defaults, roles), a kit (backup) taken first, then VERSIONS versions of SIZE_MB each (random, so every
# chunk is new) stored through a warmed agent over 4 nodes; the tracker is killed, its directory deleted,
# and recovery is timed; the restarted tracker must list every version.
#   ./mvnw -B -q -DskipTests package && it/tools/recover-bench.sh VERSIONS SIZE_MB
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
VERSIONS=${1:-40}; SIZE_MB=${2:-8}
W=$(mktemp -d /tmp/recover-bench.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
CAIRN="$ROOT/client-cli/target/cairn"
TJAR="$ROOT/tracker/target/cairn-tracker.jar"
grid_up 8GiB
agent_up
java -jar "$TJAR" backup --data "$W/tracker" --tracker "$URL" --to "$W/kit" > /dev/null
for v in $(seq "$VERSIONS"); do
  head -c $((SIZE_MB << 20)) /dev/urandom > "$W/img"
  CAIRN_AGENT_SOCKET=$W/agent.sock "$CAIRN" store "$W/img" --app bench --node "n$((v % 4))" > /dev/null
done
sleep 3 # the agent's last records
ADDRS=$(grep -ho "serving on [^,]*" "$W"/p*.out | awk '{print $3}' | paste -sd, -)
kill -9 "$TRACKER"; rm -rf "$W/tracker"
/usr/bin/time -f "%e s wall, %U+%S CPU-s" -o "$W/t" java -jar "$TJAR" recover --from-peers "$ADDRS" --kit "$W/kit" --data "$W/tracker" --json > "$W/r.json"
python3 -c "import json; r=json.load(open('$W/r.json')); print('recovered', r['catalog']['versions'], 'versions,', r['catalog']['chunks'], 'chunk entries from', r['recordsFound'], 'records on', len(r['peers']), 'peers; problems:', len(r['problems']))"
echo "recover: $(cat "$W/t")"
