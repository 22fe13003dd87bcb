#!/usr/bin/env bash
# How long a job is frozen per dump: CRIU's own `criu dump --leave-running` to local disk against `cairn criu dump`
# (which runs the same CRIU dump into its work directory, then stores it) with --write soft and with the default
# (pessimistic) writes, on the two programs of it/tools/criu-series (heap.c, heap.py), each started with a tick
# file: a thread of the program appends the wall clock every 10 ms, so the largest gap between two ticks while a
# command runs is how long the process was frozen (plus up to one 10 ms period). ROUNDS rounds (default 3), one step
# of the program before each dump, the order of the three ways rotated each round; a local grid (tracker + 6 peers,
# local-grid.sh), code:4+2. Prints per dump: the way, the command's wall, the pause, CRIU's own frozen_time (from the
# dump's stats-dump, for the local dump; cairn removes its copy once stored), the share of the expected ticks the
# program wrote while the command ran (1.00: not slowed at all; the store shares the cores with the job), and the
# dump's image bytes. WAYS (default "criu-local cairn-soft cairn-pessimistic") may also name cairn-soft-shm:
# `cairn criu dump --write soft` with its work directory on tmpfs (/dev/shm), so CRIU writes the pages to memory.
#   ./mvnw -B -q -DskipTests package && sudo it/tools/criu-pause.sh [c python]
# Needs root, CRIU 4.2 (CAIRN_CRIU, else ~/.cache/cairn/criu/sbin/criu), gcc and python3 >= 3.9.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export CAIRN_CRIU=${CAIRN_CRIU:-$HOME/.cache/cairn/criu/sbin/criu}
[ $# -gt 0 ] && KINDS=("$@") || KINDS=(c python)
read -ra WAYS <<< "${WAYS:-criu-local cairn-soft cairn-pessimistic}"
for k in "${KINDS[@]}"; do case $k in c|python) ;; *) echo "a program is c or python, not '$k'" >&2; exit 2 ;; esac; done
for w in "${WAYS[@]}"; do
  case $w in criu-local|cairn-soft|cairn-pessimistic|cairn-soft-shm) ;; *) echo "no way '$w' (WAYS)" >&2; exit 2 ;; esac
done
W=$(mktemp -d /tmp/criu-pause.XXXX); PIDS=()
SHM=$(mktemp -d /dev/shm/criu-pause.XXXX)
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$SHM"; [ -n "${KEEP:-}" ] && echo "kept $W" >&2 || rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
export CAIRN_KEY_DIR=$W/keys
grid_up 32GiB
C=("$ROOT/client-cli/target/cairn" --tracker "$URL" --token-file "$W/client")
gcc -O2 -o "$W/heap" "$ROOT/it/tools/criu-series/heap.c" -lm -lpthread
# pause TICKS T0 T1: the largest gap (s) between successive ticks from T0 to T1 (a tick before T0 starts the window),
# then the ticks written from T0 to T1 over the number a 10 ms period gives
pause() {
  python3 - "$@" <<'PY'
import sys
ticks = [float(l) for l in open(sys.argv[1]) if l.strip()]
t0, t1 = float(sys.argv[2]), float(sys.argv[3])
inside = [t for t in ticks if t0 <= t <= t1]
before = [t for t in ticks if t < t0][-1:]
after = [t for t in ticks if t > t1][:1]
w = before + inside + after
print("%.3f\t%.2f" % (max(b - a for a, b in zip(w, w[1:])), len(inside) / ((t1 - t0) / 0.01)))
PY
}
# frozen STATS: DumpStatsEntry.frozen_time (s) from a CRIU stats-dump image (two magics, a u32 length, StatsEntry)
frozen() {
  python3 - "$1" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()[8:]
m = b[4:4 + int.from_bytes(b[:4], "little")]
def varint(m, i):
    v = s = 0
    while True:
        c = m[i]; i += 1; v |= (c & 0x7f) << s; s += 7
        if c < 0x80: return v, i
def fields(m):
    i = 0
    while i < len(m):
        key, i = varint(m, i)
        if key & 7 == 0: v, i = varint(m, i); yield key >> 3, v
        elif key & 7 == 2: n, i = varint(m, i); yield key >> 3, m[i:i + n]; i += n
        else: raise ValueError("wire type %d in stats-dump" % (key & 7))
print("%.3f" % (dict(fields(dict(fields(m))[1]))[2] / 1e6))
PY
}
await() { # await FILE LINE: until the program has printed LINE (at most 120 s)
  local t=0
  until grep -qx "$2" "$1" 2>/dev/null; do
    sleep 0.1; t=$((t + 1)); [ $t -lt 1200 ] || { echo "no '$2' in $1" >&2; exit 1; }
  done
}
# dump WAY KIND PID R: one dump the way WAY says; prints "KIND R WAY wall pause frozen tick_share bytes"
dump() {
  local way=$1 kind=$2 pid=$3 r=$4 t0 t1 bytes fz=- d=$W/local-$kind-$r
  t0=$(date +%s.%N)
  case $way in
    criu-local)
      mkdir -p "$d"
      "$CAIRN_CRIU" dump -t "$pid" -D "$d" --leave-running -o "$W/$kind-$r.log"
      bytes=$(du -sb "$d" | cut -f1); fz=$(frozen "$d/stats-dump"); rm -rf "$d" ;;
    cairn-soft|cairn-pessimistic|cairn-soft-shm)
      local mode=${way#cairn-} work=$W/work-$kind
      [ "$way" != cairn-soft-shm ] || { mode=soft; work=$SHM/work-$kind; }
      "${C[@]}" criu dump "$pid" --app "pause-$kind" --node n0 --redundancy code:4+2 --write "$mode" \
        --work-dir "$work" --json > "$W/d.json" 2> "$W/d.err" || { cat "$W/d.err" >&2; exit 1; }
      bytes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["size"])' "$W/d.json") ;;
  esac
  t1=$(date +%s.%N)
  sleep 0.1 # a tick after the command
  printf "%s\t%d\t%s\t%.2f\t%s\t%s\t%s\t%d\n" "$kind" "$r" "$way" "$(echo "$t1 - $t0" | bc)" "$(pause "$W/ticks-$kind" "$t0" "$t1" | cut -f1)" \
    "$fz" "$(pause "$W/ticks-$kind" "$t0" "$t1" | cut -f2)" "$bytes"
}
printf "program\tround\tway\twall_s\tpause_s\tcriu_frozen_s\ttick_share\timage_bytes\n"
for kind in "${KINDS[@]}"; do
  case $kind in
    c) prog=("$W/heap") ;;
    python) prog=(python3 "$ROOT/it/tools/criu-series/heap.py") ;;
  esac
  setsid "${prog[@]}" "$W/ticks-$kind" < /dev/null > "$W/out-$kind" 2>&1 &
  pid=$!; PIDS+=($pid); step=0
  await "$W/out-$kind" "ready 0"
  for r in $(seq 1 "${ROUNDS:-3}"); do
    for k in "${!WAYS[@]}"; do
      way=${WAYS[$(((k + r) % ${#WAYS[@]}))]}
      kill -USR1 "$pid"; step=$((step + 1)); await "$W/out-$kind" "ready $step"
      sleep 1 # the step's own work (Python holds its lock) is over before the dump
      dump "$way" "$kind" "$pid" "$r"
    done
  done
  kill "$pid"
done
echo "load average: $(cat /proc/loadavg)"
