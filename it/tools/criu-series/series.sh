#!/usr/bin/env bash
# A seeded series of CRIU dumps of a running program, one step of work between them: OUT/KIND/dump-0 .. dump-(N-1)
# (CRIU's image directories as `criu dump` left them; each dump's log beside them as dump-I.log), and OUT/KIND/sizes.tsv
# (bytes of each dump). KIND is c (heap.c, compiled here) or python (heap.py); N is DUMPS (default 6).
# Each dump is `criu dump -t PID -D DIR --leave-running` of the program, started in a session of its own with its
# output in a file (no terminal, so no --shell-job).
#   sudo it/tools/criu-series/series.sh /tmp/criu-ser c && sudo it/tools/criu-series/series.sh /tmp/criu-ser python
# Needs root, CRIU 4.2 (CAIRN_CRIU, else ~/.cache/cairn/criu/sbin/criu), gcc (c) or python3 >= 3.9 (python).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: series.sh OUT c|python}; kind=${2:-c}; n=${DUMPS:-6}
CRIU=${CAIRN_CRIU:-$HOME/.cache/cairn/criu/sbin/criu}
dir=$(mkdir -p "$out/$kind" && cd "$out/$kind" && pwd)
rm -rf "$dir"/dump-* "$dir/prog.out" "$dir/sizes.tsv"
case $kind in
  c) gcc -O2 -o "$dir/heap" "$here/heap.c" -lm -lpthread; prog=("$dir/heap") ;;
  python) prog=(python3 "$here/heap.py") ;;
  *) echo "KIND is c or python, not $kind" >&2; exit 2 ;;
esac
setsid "${prog[@]}" < /dev/null > "$dir/prog.out" 2>&1 &
PROG=$!
trap 'kill "$PROG" 2>/dev/null || true' EXIT
await() { # await N: until the program has printed "ready N" (at most 120 s)
  local t=0
  until grep -qx "ready $1" "$dir/prog.out" 2>/dev/null; do
    sleep 0.1; t=$((t + 1)); [ $t -lt 1200 ] || { echo "no 'ready $1' from the program" >&2; cat "$dir/prog.out" >&2; exit 1; }
  done
}
await 0
printf "dump\tbytes\tfiles\tpages_bytes\n" > "$dir/sizes.tsv"
for i in $(seq 0 $((n - 1))); do
  if [ "$i" -gt 0 ]; then kill -USR1 "$PROG"; await "$i"; fi
  mkdir "$dir/dump-$i"
  "$CRIU" dump -t "$PROG" -D "$dir/dump-$i" --leave-running -o "$dir/dump-$i.log"
  printf "%d\t%d\t%d\t%d\n" "$i" "$(du -sb "$dir/dump-$i" | cut -f1)" "$(ls "$dir/dump-$i" | wc -l)" \
    "$(cat "$dir/dump-$i"/pages-*.img | wc -c)" >> "$dir/sizes.tsv"
done
cat "$dir/sizes.tsv"
