#!/usr/bin/env bash
# Six successive real DMTCP checkpoints of a program (one step between them), and restic 0.14's
# repository size for the same six files (backed up one after another under one name): the series
# behind docs/chunk-size.md's "Quarter chunks inside memory areas".
#   PATH=~/.cache/cairn/dmtcp/bin:$PATH it/tools/dmtcp-series/series.sh OUT c|python
# Needs DMTCP on PATH, gcc (c) or python3 (python), restic. Writes OUT/imgs/img-0..5.dmtcp.
set -euo pipefail
# each command in a process of its own, as measured here: no agent of the user's started or used
export CAIRN_AGENT=${CAIRN_AGENT:-off}
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: series.sh OUT c|python}; kind=${2:-c}
mkdir -p "$out" && cd "$out"
if [ "$kind" = c ]; then gcc -O2 -o sim "$here/sim.c"; prog=(./sim); else prog=(python3 "$here/interp.py"); fi
rm -rf ck imgs port in.f out.f && mkdir -p ck imgs && mkfifo in.f out.f
dmtcp_launch --new-coordinator --coord-port 0 --port-file port --ckptdir ck --no-gzip "${prog[@]}" < in.f > out.f 2> err.f &
exec 7> in.f; exec 8< out.f; read -r _ <&8
for i in 0 1 2 3 4 5; do
  [ $i = 0 ] || { echo next >&7; read -r _ <&8; }
  dmtcp_command --coord-port "$(cat port)" -bc > /dev/null
  cp ck/ckpt_*.dmtcp imgs/img-$i.dmtcp
done
dmtcp_command --coord-port "$(cat port)" --quit > /dev/null 2>&1 || true
exec 7>&-
export RESTIC_PASSWORD=x RESTIC_REPOSITORY=$out/restic
rm -rf restic cur && mkdir cur && restic init -q > /dev/null
for i in 0 1 2 3 4 5; do cp imgs/img-$i.dmtcp cur/ckpt.dmtcp; restic backup -q cur > /dev/null; done
echo "restic repository bytes: $(du -sb restic | cut -f1)"
