#!/usr/bin/env bash
# Benchmark: the client's heap stays bounded whatever the image size. Streams SIZE_GIB GiB
# of random bytes through `cairn store -` and back through `cairn fetch -o -` with -Xmx256m on a
# local grid of 6 peers, comparing SHA-256 of what went in and what came out, and records the
# client's peak RSS (from /usr/bin/time) and its GC log.
#   it/tools/bigstore/run.sh [SIZE_GIB] [WORK_DIR]      (default 20 GiB in /tmp/cairn-bigstore; needs ~1.6 x SIZE free disk)
set -euo pipefail
SIZE=${1:-20}
WORK=${2:-/tmp/cairn-bigstore}
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
CAIRN="java -Xmx256m -Xlog:gc:file=$WORK/gc-%p.log -jar $ROOT/client-cli/target/cairn.jar"
rm -rf "$WORK" && mkdir -p "$WORK"
trap 'java -jar "$ROOT/client-cli/target/cairn.jar" grid down --dir "$WORK/grid" >/dev/null 2>&1 || true' EXIT
quota=$(( (SIZE * 3 / 2) / 6 + 2 ))
java -jar "$ROOT/client-cli/target/cairn.jar" grid up --dir "$WORK/grid" --peers 6 --quota "${quota}GiB" > "$WORK/grid.txt"
URL=$(grep -o 'https\?://[0-9.:]*' "$WORK/grid.txt" | head -1)
TOKEN="$WORK/grid/grid.token"
[ -f "$TOKEN" ] || TOKEN=$(grep -o '/[^ ]*token[^ ]*' "$WORK/grid.txt" | head -1)
echo "grid at $URL, token $TOKEN; storing $SIZE GiB with -Xmx256m"
start=$(date +%s.%N)
head -c "${SIZE}G" /dev/urandom | tee >(sha256sum > "$WORK/in.sha") | \
  /usr/bin/time -f "store: %e s, peak RSS %M KiB" $CAIRN --tracker "$URL" --token-file "$TOKEN" store - --app big --node n \
  --redundancy code:4+2 --compression none --json > "$WORK/store.json" 2> "$WORK/store.err"
mid=$(date +%s.%N)
/usr/bin/time -f "fetch: %e s, peak RSS %M KiB" $CAIRN --tracker "$URL" --token-file "$TOKEN" fetch --app big --node n -o - \
  2> "$WORK/fetch.err" | sha256sum > "$WORK/out.sha"
end=$(date +%s.%N)
sleep 1
cat "$WORK/store.json"
grep -h "peak RSS" "$WORK/store.err" "$WORK/fetch.err"
echo "in  $(cat "$WORK/in.sha")"
echo "out $(cat "$WORK/out.sha")"
awk -v s="$start" -v m="$mid" -v e="$end" -v g="$SIZE" 'BEGIN { printf "store %.0f s (%.1f MB/s), fetch %.0f s (%.1f MB/s)\n", m-s, g*1073.741824/(m-s), e-m, g*1073.741824/(e-m) }'
grep -h "Pause" "$WORK"/gc-*.log | awk '{ for (i=1;i<=NF;i++) if ($i ~ /->/) print $i }' | sort -t'(' -k2 | tail -1 | sed 's/^/largest heap after GC (used->after(total)): /'
[ "$(cut -d' ' -f1 "$WORK/in.sha")" = "$(cut -d' ' -f1 "$WORK/out.sha")" ] && echo "IDENTICAL" || { echo "DIFFERENT"; exit 1; }
