#!/usr/bin/env bash
# Produces successive real process memory images (ELF core files, via gdb's gcore) of the mutator
# program, for chunk-size and dedup measurements:
#   it/tools/memimage/make-images.sh OUT_DIR [COUNT] [GRID_MB PARTICLE_MB TABLE_MB SCRATCH_MB]
# Needs gcc and gdb (apt-get install gcc gdb). Writes OUT_DIR/image-0.core .. image-(COUNT-1).core.
set -euo pipefail
out=${1:?usage: make-images.sh OUT_DIR [COUNT] [GRID_MB PARTICLE_MB TABLE_MB SCRATCH_MB]}
count=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
gcc -O2 -o "$out/mutator" "$here/mutator.c"
coproc MUT { exec "$out/mutator" "${3:-96}" "${4:-48}" "${5:-16}" "${6:-96}"; }
pid=$MUT_PID
trap 'kill $pid 2>/dev/null || true' EXIT
for i in $(seq 0 $((count - 1))); do
  read -r line <&"${MUT[0]}"
  echo "checkpoint $i: $line" >&2
  gcore -o "$out/image-$i" "$pid" >/dev/null 2>&1
  mv "$out/image-$i.$pid" "$out/image-$i.core"
  echo next >&"${MUT[1]}"
done
ls -l "$out"/image-*.core >&2
