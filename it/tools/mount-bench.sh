#!/usr/bin/env bash
# The targets: writing a checkpoint through `cairn mount` against `cairn store` of the same file
# (a new process per image, as a job script runs it), and reading it back (`cat MOUNT/NODE/latest` against
# `cairn fetch -o`). A local grid (tracker + 6 peers at their defaults), one mount for app "viamount";
# `cairn store` stores the same images as app "viastore" (each series dedups only within its own app).
# Images: the files given (default: a DMTCP series made by it/tools/dmtcp-series/series.sh).
#   ./mvnw -B -q -DskipTests package && it/tools/mount-bench.sh IMG...
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
IMGS=("$@")
[ ${#IMGS[@]} -gt 0 ] || { echo "usage: $0 IMG..." >&2; exit 2; }
W=$(mktemp -d /tmp/mount-bench.XXXX)
PIDS=()
trap 'fusermount3 -u -z "$W/mnt" 2>/dev/null || true; kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
CAIRN="$ROOT/client-cli/target/cairn"
grid_up 8GiB
export CAIRN_KEY_DIR=$W/keys
mkdir "$W/mnt"
"$CAIRN" --tracker "$URL" --token-file "$W/client" mount --app viamount "$W/mnt" > "$W/mount.out" 2> "$W/mount.err" &
PIDS+=($!)
until grep -q "^mounted" "$W/mount.out" 2>/dev/null; do sleep 0.2; done
mkdir "$W/mnt/n"
t() { local s; s=$(date +%s.%N); "$@" > /dev/null; echo "$(date +%s.%N) - $s" | bc; }
printf "%-14s %8s %8s %8s %8s %8s %8s %8s\n" image MB store_s mount_s write_x fetch_s read_s read_x
for img in "${IMGS[@]}"; do
  mb=$(( $(stat -c %s "$img") >> 20 ))
  s=$(t "$CAIRN" --tracker "$URL" --token-file "$W/client" store "$img" --app viastore --node n)
  m=$(t cp "$img" "$W/mnt/n/ckpt")
  f=$(t "$CAIRN" --tracker "$URL" --token-file "$W/client" fetch --app viastore --node n -o "$W/fetched")
  sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true
  r=$(t cp "$W/mnt/n/latest" "$W/read")
  cmp "$W/read" "$img"; cmp "$W/fetched" "$img"; rm -f "$W/read" "$W/fetched"
  printf "%-14s %8d %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f\n" "$(basename "$img")" "$mb" "$s" "$m" "$(echo "$s / $m" | bc -l)" "$f" "$r" \
    "$(echo "$f / $r" | bc -l)"
done
echo "write_x = store_s / mount_s, read_x = fetch_s / read_s (targets: both >= 0.8)"
