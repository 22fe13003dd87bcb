#!/usr/bin/env bash
# Bytes held for a CRIU dump series (it/tools/criu-series/series.sh): each dump stored in order as the next directory
# version of one app with `cairn store --dir DUMP --redundancy code:4+2` (defaults otherwise) into a fresh local grid
# (tracker + 6 peers, local-grid.sh; a new grid per series), against a fresh restic repository (`restic backup` of
# each dump under one path; restic's defaults: repository v2, zstd auto) and a borg repository (`borg create`,
# unencrypted, its default lz4). The tracker's catalog is not counted: it is the tracker's disk, not the donors'.
# Per dump: its bytes; the store's new bytes, compressed bytes (before coding) and pieces sent; restic's and borg's
# repository growth. Per series: the peers' payload (sum of the versions' storedBytes), the six peers' data
# directories (du, apparent and allocated, while running and after a clean stop; split into segment files, the RocksDB
# index and the rest), restic's and borg's repository (du -sb), and the ratios. The first and last versions are
# fetched back and compared with their dumps.
#   ./mvnw -B -q -DskipTests package && sudo it/tools/criu-restic.sh /tmp/criu-ser c python
# restic draws a random chunker polynomial for each repository, so its size moves from one repository to the next:
# RESTIC_REPOS=N (default 3) backs the series up into N fresh repositories and prints every size; the ratio columns
# take the first and the range over all. KEEP=1 keeps the scratch directory (printed). REDUNDANCY (default code:4+2)
# and STORE_ARGS pass on to cairn store.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SER=${1:?usage: criu-restic.sh SERIES_DIR KIND...}; shift
[ $# -gt 0 ] && KINDS=("$@") || KINDS=(c python)
for k in "${KINDS[@]}"; do
  [ -d "$SER/$k/dump-0" ] || { echo "no $SER/$k/dump-0: make the series with it/tools/criu-series/series.sh $SER $k" >&2; exit 2; }
done
BASE=$(mktemp -d /tmp/criu-restic.XXXX); PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; [ -n "${KEEP:-}" ] && echo "kept $BASE" >&2 || rm -rf "$BASE"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
RED=${REDUNDANCY:-code:4+2}
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
sb() { du -sb "$@" | awk '{s += $1} END {print s + 0}'; }          # apparent bytes
alloc() { du -s -B1 "$@" | awk '{s += $1} END {print s + 0}'; }     # allocated on disk
mb() { echo "scale=1; $1 / 1000000" | bc; }
# peers_du: the six peers' data dirs: apparent bytes in all, allocated bytes in all, then apparent/allocated bytes of
# the segment files (the pieces), of the RocksDB index (the rest of fragments/) and of everything else (keys, certificates)
peers_du() {
  python3 - "$W" <<'PY'
import os, sys
cat = {"seg": [0, 0], "idx": [0, 0], "other": [0, 0]}
for i in range(1, 7):
    for d, _, fs in os.walk(os.path.join(sys.argv[1], "p%d" % i)):
        for f in fs:
            st = os.stat(os.path.join(d, f))
            c = cat[{"segments": "seg", "fragments": "idx"}.get(os.path.basename(d), "other")]
            c[0] += st.st_size; c[1] += st.st_blocks * 512
print(sum(c[0] for c in cat.values()), sum(c[1] for c in cat.values()), *("%d/%d" % tuple(c) for c in cat.values()))
PY
}
export RESTIC_PASSWORD_FILE=$BASE/restic.pw
echo "not-secret" > "$RESTIC_PASSWORD_FILE"
for kind in "${KINDS[@]}"; do
  W=$BASE/$kind; mkdir -p "$W"
  export CAIRN_KEY_DIR=$W/keys
  grid_up 32GiB
  C=("$ROOT/client-cli/target/cairn" --tracker "$URL" --token-file "$W/client")
  dumps=$(find "$SER/$kind" -maxdepth 1 -type d -name 'dump-*' | sort -t- -k2 -n)
  restic -q -r "$W/restic-$kind" init > /dev/null
  borg init -e none "$W/borg-$kind" > /dev/null 2>&1
  printf "\n%s series\ndump\tbytes\tnew_bytes\tcompressed\tpieces_sent\tstore_s\trestic_growth\tborg_growth\n" "$kind"
  raw=0; rprev=$(sb "$W/restic-$kind"); bprev=$(sb "$W/borg-$kind"); i=0
  for d in $dumps; do
    bytes=$(sb "$d"); raw=$((raw + bytes))
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    "${C[@]}" store --dir "$d" --app "criu-$kind" --node n0 --redundancy "$RED" ${STORE_ARGS:-} --json > "$W/s.json" 2> "$W/s.err" \
      || { cat "$W/s.err" >&2; exit 1; }
    t=$(echo "$(date +%s.%N) - $t0" | bc)
    rm -rf "$W/cur" && cp -a "$d" "$W/cur"
    (cd "$W" && restic -q -r "$W/restic-$kind" backup cur > /dev/null)
    (cd "$W" && borg create "$W/borg-$kind::d$i" cur)
    r=$(sb "$W/restic-$kind"); b=$(sb "$W/borg-$kind")
    printf "%d\t%d\t%d\t%d\t%d\t%.1f\t%d\t%d\n" "$i" "$bytes" "$(field "$W/s.json" newBytes)" "$(field "$W/s.json" compressedBytes)" \
      "$(field "$W/s.json" sentBytes)" "$t" $((r - rprev)) $((b - bprev)) | tee -a "$W/rows-$kind.tsv"
    rprev=$r; bprev=$b; i=$((i + 1))
  done
  "${C[@]}" versions --app "criu-$kind" --node n0 --json > "$W/v-$kind.json"
  # what was counted is the series: the first and the last dump fetched back are the dumps, byte for byte
  for step in 1 "$i"; do
    d=$(echo "$dumps" | sed -n "${step}p")
    "${C[@]}" fetch --app "criu-$kind" --node n0 --step "$step" --dir "$W/back" > /dev/null 2> "$W/f.err" || { cat "$W/f.err" >&2; exit 1; }
    diff -r "$d" "$W/back" > /dev/null || { echo "step $step of criu-$kind differs from $d" >&2; exit 1; }
    rm -rf "$W/back"
  done
  echo "steps 1 and $i fetched back: the same bytes as the dumps"
  payload=$(python3 -c 'import json,sys; print(sum(v["storedBytes"] for v in json.load(open(sys.argv[1]))))' "$W/v-$kind.json")
  compressed=$(awk '{s += $4} END {print s}' "$W/rows-$kind.tsv")
  restic_b=$(sb "$W/restic-$kind"); borg_b=$(sb "$W/borg-$kind"); restics=$restic_b
  for j in $(seq 2 "${RESTIC_REPOS:-3}"); do
    restic -q -r "$W/restic-$kind-$j" init > /dev/null
    for d in $dumps; do
      rm -rf "$W/cur" && cp -a "$d" "$W/cur" && (cd "$W" && restic -q -r "$W/restic-$kind-$j" backup cur > /dev/null)
    done
    restics="$restics,$(sb "$W/restic-$kind-$j")"; rm -rf "$W/restic-$kind-$j"
  done
  read -r running running_alloc rseg ridx _ <<< "$(peers_du)"
  kill -TERM "${PEERS[@]}"; for p in "${PEERS[@]}"; do while kill -0 "$p" 2>/dev/null; do sleep 0.2; done; done
  kill -TERM "$TRACKER"
  read -r du du_alloc seg idx other <<< "$(peers_du)"
  echo "$kind $raw $payload $compressed $restic_b $borg_b $du $restics" >> "$BASE/series"
  printf "%s: dumps %s MB; peers' payload %s MB (compressed before coding %s MB); restic %s bytes; borg %s MB\n" "$kind" \
    "$(mb $raw)" "$(mb "$payload")" "$(mb "$compressed")" "$restics" "$(mb "$borg_b")"
  printf "peers' data dirs (apparent/allocated bytes): running %s/%s, segments %s, index %s; stopped %s/%s, segments %s, index %s, other %s\n" \
    "$running" "$running_alloc" "$rseg" "$ridx" "$du" "$du_alloc" "$seg" "$idx" "$other"
done
printf "\nseries\tdumps_MB\tpeers_payload_MB\tpeers_du_MB\tcompressed_MB\trestic_MB\tborg_MB\tpayload/restic\tdu/restic\tcompressed/restic\tpayload/borg\tdu/restic_range\n"
while read -r kind raw payload compressed restic_b borg_b du restics; do
  range=$(python3 -c 'import sys; r = [int(x) for x in sys.argv[2].split(",")]; d = int(sys.argv[1]); print("%.2f-%.2f" % (d / max(r), d / min(r)))' "$du" "$restics")
  printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%.2f\t%.2f\t%.2f\t%s\n" "$kind" "$(mb "$raw")" "$(mb "$payload")" "$(mb "$du")" "$(mb "$compressed")" \
    "$(mb "$restic_b")" "$(mb "$borg_b")" "$(echo "$payload / $restic_b" | bc -l)" "$(echo "$du / $restic_b" | bc -l)" \
    "$(echo "$compressed / $restic_b" | bc -l)" "$(echo "$payload / $borg_b" | bc -l)" "$range"
done < "$BASE/series"
echo "load average: $(cat /proc/loadavg)"
