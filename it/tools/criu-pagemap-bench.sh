#!/usr/bin/env bash
# The second CRIU dump of a process, stored with the pagemap cut (--chunking aligned, the default) and with plain
# fixed chunks: a Python process fills a 200 MB heap (seeded random bytes), is dumped with CRIU, rewrites 5 % of its
# pages in clustered runs, and is dumped again; each chunking stores both dumps into a fresh app on one local grid
# (tracker + 6 peers, defaults) and the second store's bytes sent to the grid and its time are printed.
# CHUNKINGS (default "fixed aligned") says which chunkings; run it on an older build (first argument: its repo
# root) with CHUNKINGS=aligned to compare with what that build's default did.
# Needs root and CRIU 4.2 (CAIRN_CRIU, else ~/.cache/cairn/criu/sbin/criu) and a packaged build:
#   ./mvnw -B -q -DskipTests package -pl client-cli,tracker,peer -am && sudo it/tools/criu-pagemap-bench.sh
set -euo pipefail
export CAIRN_AGENT=${CAIRN_AGENT:-off}
ROOT=$(cd "${1:-.}" && pwd)
CRIU=${CAIRN_CRIU:-$HOME/.cache/cairn/criu/sbin/criu}
MB=${MB:-200}
W=$(mktemp -d /tmp/criu-bench.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT

await() { # await FILE PATTERN: polls up to 60 s
  local t=0
  until grep -q "$2" "$1" 2>/dev/null; do
    sleep 0.2; t=$((t + 1)); [ $t -lt 300 ] || { echo "timed out waiting for '$2' in $1" >&2; exit 1; }
  done
}

java -jar "$ROOT/tracker/target/cairn-tracker.jar" --data "$W/tracker" --listen 127.0.0.1:0 > "$W/tracker.out" 2> "$W/tracker.err" &
PIDS+=($!)
await "$W/tracker.out" "listening on"
URL=$(grep -o 'listening on [^ ]*' "$W/tracker.out" | cut -d' ' -f3)
java -jar "$ROOT/tracker/target/cairn-tracker.jar" token create --data "$W/tracker" --role donor --uses 64 > "$W/donor"
java -jar "$ROOT/tracker/target/cairn-tracker.jar" token create --data "$W/tracker" --role client > "$W/client"
for i in 1 2 3 4 5 6; do
  java -jar "$ROOT/peer/target/cairn-peer.jar" --tracker "$URL" --token-file "$W/donor" --data "$W/p$i" \
    --listen 127.0.0.1:0 --quota 8GiB > "$W/p$i.out" 2> "$W/p$i.err" &
  PIDS+=($!)
done
for i in 1 2 3 4 5 6; do await "$W/p$i.out" "serving on"; done

cat > "$W/heap.py" <<PY
import random, signal, sys
PAGE = 4096
pages = $MB * 2**20 // PAGE
rng = random.Random(67)
heap = bytearray(rng.randbytes(pages * PAGE))
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
print("ready", flush=True)
rounds = 0
while True:
    signal.sigwait({signal.SIGUSR1})
    dirty = 0
    while dirty < pages // 20:  # 5 % of the pages, in runs of 1..256
        run = min(pages // 20 - dirty, rng.randint(1, 256))
        at = rng.randrange(pages - run) * PAGE
        heap[at:at + run * PAGE] = rng.randbytes(run * PAGE)
        dirty += run
    rounds += 1
    print("dirtied", rounds, flush=True)
PY
setsid python3 "$W/heap.py" < /dev/null > "$W/heap.out" 2>&1 &
PROG=$!
PIDS+=($PROG)
await "$W/heap.out" "ready"
"$CRIU" dump -t "$PROG" -D "$(mkdir -p "$W/d1" && echo "$W/d1")" --leave-running -o "$W/d1.log"
kill -USR1 "$PROG"
await "$W/heap.out" "dirtied 1"
"$CRIU" dump -t "$PROG" -D "$(mkdir -p "$W/d2" && echo "$W/d2")" --leave-running -o "$W/d2.log"
echo "dumps: $(du -sm "$W/d1" | cut -f1) MB and $(du -sm "$W/d2" | cut -f1) MB, $(ls "$W/d2" | wc -l) files" >&2

cairn() { java -jar "$ROOT/client-cli/target/cairn.jar" --tracker "$URL" --token-file "$W/client" "$@"; }
field() { grep -o "\"$1\" *: *[0-9.]*" "$2" | head -1 | sed 's/.*: *//'; }
printf "chunking\tsecond_dump_bytes\tsent_bytes\tnew_bytes\tstore_s\twall_s\n"
for c in ${CHUNKINGS:-fixed aligned}; do
  cairn store --dir "$W/d1" --app "criu-$c" --node n0 --chunking "$c" --json > "$W/$c.1.json"
  start=$(date +%s.%N)
  cairn store --dir "$W/d2" --app "criu-$c" --node n0 --chunking "$c" --json > "$W/$c.2.json"
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  printf "%s\t%s\t%s\t%s\t%s\t%.1f\n" "$c" "$(field size "$W/$c.2.json")" "$(field sentBytes "$W/$c.2.json")" \
    "$(field newBytes "$W/$c.2.json")" "$(field seconds "$W/$c.2.json")" "$wall"
done
