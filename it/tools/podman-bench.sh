#!/usr/bin/env bash
# The second Podman checkpoint of a container holding ~100 MB of memory, stored with the pagemap cut of the export tar
# (--chunking aligned, the default) and with plain fixed chunks: a static C program in a busybox container fills a
# MB-sized heap (seeded random bytes), is checkpointed with `podman container checkpoint --export --compress=none
# --leave-running`, rewrites PCT % of its pages in runs of 1-256 pages, and is checkpointed again; each chunking stores
# both exports (`cairn store F.tar`, as a user would) into a fresh app on one local grid (tracker + 6 peers, defaults)
# and the second store's bytes sent to the grid and its time are printed.
# Needs root, podman, runc, busybox-static, gcc with a static libc, CRIU 4.2 (CAIRN_CRIU, else
# ~/.cache/cairn/criu/sbin/criu) and a packaged build:
#   ./mvnw -B -q -DskipTests package -pl client-cli,tracker,peer -am && sudo it/tools/podman-bench.sh
set -euo pipefail
export CAIRN_AGENT=${CAIRN_AGENT:-off}
ROOT=$(cd "${1:-.}" && pwd)
CRIU=${CAIRN_CRIU:-$HOME/.cache/cairn/criu/sbin/criu}
MB=${MB:-100}
PCT=${PCT:-3}
W=$(mktemp -d /tmp/podman-bench.XXXX)
TAG=$(basename "$W" | tr 'A-Z' 'a-z' | tr -cd 'a-z0-9')
NAME=cairn-bench-$TAG
IMAGE=localhost/cairn-bench-heap:$TAG
PIDS=()
export PATH="$(dirname "$CRIU"):$PATH" # runc runs criu from PATH: CRIU 4.2 first
export CAIRN_KEY_DIR="$W/keys" CAIRN_BASE_CACHE="$W/bases" # this run's app keys and base cache, removed with it
cleanup() {
  kill "${PIDS[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
  podman rm -f -t 0 "$NAME" >/dev/null 2>&1 || true
  podman rmi -f "$IMAGE" >/dev/null 2>&1 || true
  rm -rf "$W"
}
trap cleanup EXIT

await() { # await COMMAND PATTERN: polls the command's output up to 60 s
  local t=0
  until eval "$1" 2>/dev/null | grep -q "$2"; do
    sleep 0.2; t=$((t + 1)); [ $t -lt 300 ] || { echo "timed out waiting for '$2' from $1" >&2; exit 1; }
  done
}

java -jar "$ROOT/tracker/target/cairn-tracker.jar" --data "$W/tracker" --listen 127.0.0.1:0 > "$W/tracker.out" 2> "$W/tracker.err" &
PIDS+=($!)
await "cat $W/tracker.out" "listening on"
URL=$(grep -o 'listening on [^ ]*' "$W/tracker.out" | cut -d' ' -f3)
java -jar "$ROOT/tracker/target/cairn-tracker.jar" token create --data "$W/tracker" --role donor --uses 64 > "$W/donor"
java -jar "$ROOT/tracker/target/cairn-tracker.jar" token create --data "$W/tracker" --role client > "$W/client"
for i in 1 2 3 4 5 6; do
  java -jar "$ROOT/peer/target/cairn-peer.jar" --tracker "$URL" --token-file "$W/donor" --data "$W/p$i" \
    --listen 127.0.0.1:0 --quota 8GiB > "$W/p$i.out" 2> "$W/p$i.err" &
  PIDS+=($!)
done
for i in 1 2 3 4 5 6; do await "cat $W/p$i.out" "serving on"; done

cat > "$W/heap.c" <<'C'
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static uint64_t s = 67;
static volatile sig_atomic_t asked;
static uint64_t next(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
static void fill(unsigned char *p, size_t n) { for (size_t i = 0; i + 8 <= n; i += 8) { uint64_t v = next(); memcpy(p + i, &v, 8); } }
static void on_usr1(int sig) { (void) sig; asked = 1; }
int main(int argc, char **argv) {
  size_t pages = (size_t) atol(argv[1]) * 256, pct = (size_t) atol(argv[2]);
  unsigned char *heap = malloc(pages * 4096);
  fill(heap, pages * 4096);
  sigset_t usr1, none;
  sigemptyset(&usr1); sigaddset(&usr1, SIGUSR1); sigemptyset(&none);
  sigprocmask(SIG_BLOCK, &usr1, NULL);
  signal(SIGUSR1, on_usr1); /* a handler: PID 1 of a container gets no signal it does not handle */
  printf("ready\n"); fflush(stdout);
  for (int round = 1;; round++) {
    while (!asked) sigsuspend(&none);
    asked = 0;
    for (size_t dirty = 0, goal = pages * pct / 100; dirty < goal;) { /* PCT % of the pages, in runs of 1..256 */
      size_t run = 1 + next() % 256;
      if (run > goal - dirty) run = goal - dirty;
      fill(heap + (next() % (pages - run)) * 4096, run * 4096);
      dirty += run;
    }
    printf("dirtied %d\n", round); fflush(stdout);
  }
}
C
mkdir -p "$W/rootfs/bin"
gcc -O2 -static -o "$W/rootfs/bin/heap" "$W/heap.c"
cp /bin/busybox "$W/rootfs/bin/busybox"
tar -C "$W/rootfs" -cf "$W/rootfs.tar" .
podman import -q "$W/rootfs.tar" "$IMAGE" > /dev/null
podman --runtime runc run -d --name "$NAME" --network none --ulimit nofile=1024:1024 --ulimit nproc=4096:4096 \
  "$IMAGE" /bin/heap "$MB" "$PCT" > /dev/null
await "podman logs $NAME" "ready"
podman container checkpoint --export="$W/e1.tar" --compress=none --leave-running "$NAME" > /dev/null
podman kill -s USR1 "$NAME" > /dev/null
await "podman logs $NAME" "dirtied 1"
podman container checkpoint --export="$W/e2.tar" --compress=none --leave-running "$NAME" > /dev/null
echo "exports: $(du -m "$W/e1.tar" | cut -f1) MB and $(du -m "$W/e2.tar" | cut -f1) MB" >&2

cairn() { java -jar "$ROOT/client-cli/target/cairn.jar" --tracker "$URL" --token-file "$W/client" "$@"; }
field() { grep -o "\"$1\" *: *[0-9.]*" "$2" | head -1 | sed 's/.*: *//'; }
printf "chunking\tsecond_export_bytes\tsent_bytes\tnew_bytes\tstore_s\twall_s\n"
for c in ${CHUNKINGS:-fixed aligned}; do
  cairn store "$W/e1.tar" --app "podman-$c" --node n0 --chunking "$c" --json > "$W/$c.1.json"
  start=$(date +%s.%N)
  cairn store "$W/e2.tar" --app "podman-$c" --node n0 --chunking "$c" --json > "$W/$c.2.json"
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  printf "%s\t%s\t%s\t%s\t%s\t%.1f\n" "$c" "$(field size "$W/$c.2.json")" "$(field sentBytes "$W/$c.2.json")" \
    "$(field newBytes "$W/$c.2.json")" "$(field seconds "$W/$c.2.json")" "$wall"
done
