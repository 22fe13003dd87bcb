#!/usr/bin/env bash
# Checkpoint time a job sees: DMTCP's own gzip checkpoint to local disk against DMTCP without
# gzip followed by `cairn store --write soft|optimistic|pessimistic` of the images (a new cairn process
# per store, default settings, a local grid of a tracker and 6 peers at their defaults), on two real
# workloads: the C mutator (it/tools/memimage, ~256 MB) and a Python interpreter holding ~130 MB of
# objects. Two successive checkpoints each (the second mostly deduplicates). Then the same through
# `cairn dmtcp launch --write soft`, where the store runs in the launch's warm JVM while the job goes
# on: the job is paused only for DMTCP's raw checkpoint. Needs DMTCP on PATH
# (third_party/dmtcp/build.sh) and gcc.
#   ./mvnw -B -q -DskipTests package && PATH=~/.cache/cairn/dmtcp/bin:$PATH it/tools/soft-bench.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d /tmp/soft-bench.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; for f in "$W"/port.*; do [ -f "$f" ] && dmtcp_command --coord-port "$(cat "$f")" --quit >/dev/null 2>&1; done; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
command -v dmtcp_launch > /dev/null || { echo "dmtcp_launch is not on PATH (third_party/dmtcp/build.sh)" >&2; exit 2; }
CAIRN="$ROOT/client-cli/target/cairn"
export CAIRN_KEY_DIR=$W/keys
grid_up 8GiB
gcc -O2 -o "$W/mutator" "$ROOT/it/tools/memimage/mutator.c"
cat > "$W/interp.py" <<'PY'
import sys, random
random.seed(7)
objs = [{"id": i, "name": "particle-%d" % i, "pos": [random.random() for _ in range(3)], "hist": list(range(i % 17))}
        for i in range(300000)]
blob = [bytes(random.getrandbits(8) for _ in range(256)) for _ in range(20000)]
step = 0
while True:
    print("ready", step, flush=True)
    if not sys.stdin.readline():
        break
    for o in random.sample(objs, 20000):
        o["pos"][0] += 0.01
        o["hist"].append(step)
    step += 1
PY

# start NAME GZIP COMMAND...: the program under its own coordinator, fed and read through fifos
start() {
  local name=$1 gz=$2; shift 2
  mkfifo "$W/in.$name" "$W/out.$name"
  mkdir -p "$W/ck.$name"
  dmtcp_launch --new-coordinator --coord-port 0 --port-file "$W/port.$name" --ckptdir "$W/ck.$name" "$gz" "$@" \
    < "$W/in.$name" > "$W/out.$name" 2> "$W/err.$name" &
  PIDS+=($!)
  exec {fd}> "$W/in.$name"; eval "IN_$name=$fd"
  exec {fd}< "$W/out.$name"; eval "OUT_$name=$fd"
}
ready() { local fd; eval "fd=\$OUT_$1"; read -r line <&"$fd"; }
step() { local fd; eval "fd=\$IN_$1"; echo next >&"$fd"; ready "$1"; }
# ckpt NAME: wall seconds of a blocking checkpoint
ckpt() {
  local t0 t1
  t0=$(date +%s.%N)
  dmtcp_command --coord-port "$(cat "$W/port.$1")" -bc > /dev/null
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc
}
# store DIR MODE APP: wall seconds of one `cairn store` process
store() {
  local t0 t1
  t0=$(date +%s.%N)
  "$CAIRN" --tracker "$URL" --token-file "$W/client" store --dir "$1" --write "$2" --app "$3" --node n0 > /dev/null 2> "$W/store.err" \
    || { cat "$W/store.err" >&2; exit 1; }
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc
}

declare -A GZIP_S
printf "workload\tckpt\timage_MB\tdmtcp_gzip_s\tdmtcp_raw_s\tsoft_store_s\toptimistic_store_s\tpessimistic_store_s\tsoft_job_s\tsoft/gzip\n"
for wl in mutator interp; do
  if [ $wl = mutator ]; then cmd=("$W/mutator" 96 48 16 96); else cmd=(python3 "$W/interp.py"); fi
  start "${wl}_gz" --gzip "${cmd[@]}"
  start "${wl}_raw" --no-gzip "${cmd[@]}"
  ready "${wl}_gz"; ready "${wl}_raw"
  for c in 1 2; do
    [ $c = 1 ] || { step "${wl}_gz"; step "${wl}_raw"; }
    g=$(ckpt "${wl}_gz")
    r=$(ckpt "${wl}_raw")
    gen=$W/ck.${wl}_raw # the images (overwritten at each checkpoint) and the restart script
    mb=$(du -sm --apparent-size "$gen" | cut -f1)
    s=$(store "$gen" soft "$wl-soft"); o=$(store "$gen" optimistic "$wl-opt"); p=$(store "$gen" pessimistic "$wl-pess")
    job=$(echo "$r + $s" | bc)
    printf "%s\t%d\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n" "$wl" "$c" "$mb" "$g" "$r" "$s" "$o" "$p" "$job" "$(echo "$job / $g" | bc -l)"
    GZIP_S[$wl$c]=$g
  done
done

# the launch path: the job pauses for the raw checkpoint; the store follows in the launch's JVM
printf "\nworkload\tckpt\tdmtcp_gzip_s\tjob_pause_s\tlaunch_soft_store_s\tpause/gzip\tsafe_on_grid_s\n"
for wl in mutator interp; do
  if [ $wl = mutator ]; then cmd=("$W/mutator" 96 48 16 96); else cmd=(python3 "$W/interp.py"); fi
  name=${wl}_launch
  mkfifo "$W/in.$name" "$W/out.$name"
  PATH=$PATH "$CAIRN" --tracker "$URL" --token-file "$W/client" dmtcp launch --app "$wl-launch" --node n0 --interval 1h --write soft \
    --ckpt-dir "$W/ck.$name" -- "${cmd[@]}" < "$W/in.$name" > "$W/out.$name" 2> "$W/err.$name" &
  PIDS+=($!)
  exec {fd}> "$W/in.$name"; eval "IN_$name=$fd"
  exec {fd}< "$W/out.$name"; eval "OUT_$name=$fd"
  ready "$name"
  cp "$W/ck.$name/.coordinator-port" "$W/port.$name"
  for c in 1 2; do
    [ $c = 1 ] || step "$name"
    pause=$(ckpt "$name")
    while ! grep -q "stored checkpoint $c " "$W/err.$name"; do sleep 0.2; done
    st=$(grep "stored checkpoint $c " "$W/err.$name" | sed 's/.* in \([0-9.]*\) s$/\1/')
    g=${GZIP_S[$wl$c]}
    printf "%s\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n" "$wl" "$c" "$g" "$pause" "$st" "$(echo "$pause / $g" | bc -l)" "$(echo "$pause + $st" | bc)"
  done
done
