#!/usr/bin/env bash
# Bytes the peers hold (sum of storedBytes) for a series made by series.sh, one store per image with
# code:4+2, per chunking and chunk size (CFGS="aligned 1MiB;fixed 1MiB", COMP=auto:3 for zstd 3), and
# with TIMES=1 the wall time of each store and of fetching the last (a new cairn process each).
# DELTA=off stores without coding chunks against the previous version's; DIR=1 stores each image
# as a directory version holding it under one name (as 'cairn dmtcp launch' stores a generation).
#   ./mvnw -B -q -DskipTests package && it/tools/dmtcp-series/cairn-bytes.sh OUT
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
imgs=${1:?usage: cairn-bytes.sh OUT}/imgs
W=$(mktemp -d /tmp/cairn-bytes.XXXX); PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
. "$ROOT/it/tools/local-grid.sh"
export CAIRN_KEY_DIR=$W/keys
grid_up 8GiB
C="$ROOT/client-cli/target/cairn --tracker $URL --token-file $W/client"
IFS=";" read -ra CF <<< "${CFGS:-fixed 1MiB;aligned 1MiB;cdc 1MiB}"
for cfg in "${CF[@]}"; do
  set -- $cfg
  app="b-$1-$2"; times=""
  for i in 0 1 2 3 4 5; do
    what=("$imgs/img-$i.dmtcp")
    if [ -n "${DIR:-}" ]; then
      rm -rf "$W/gen" && mkdir "$W/gen" && ln "$imgs/img-$i.dmtcp" "$W/gen/ckpt_job_1.dmtcp" 2>/dev/null \
        || cp "$imgs/img-$i.dmtcp" "$W/gen/ckpt_job_1.dmtcp"
      what=(--dir "$W/gen")
    fi
    t0=$(date +%s.%N)
    $C store "${what[@]}" --app "$app" --node n0 --redundancy code:4+2 --chunking "$1" --chunk-size "$2" \
      --compression "${COMP:-auto}" --delta "${DELTA:-on}" > /dev/null 2>&1
    times="$times $(echo "$(date +%s.%N) - $t0" | bc | cut -c1-5)"
  done
  total=$($C versions --app "$app" --node n0 --json | python3 -c 'import json,sys; print(sum(v["storedBytes"] for v in json.load(sys.stdin)))')
  line="$1 $2 stored $total"
  if [ -n "${TIMES:-}" ]; then
    t0=$(date +%s.%N)
    if [ -n "${DIR:-}" ]; then
      rm -rf "$W/out" && $C fetch --app "$app" --node n0 --dir "$W/out" > /dev/null 2>&1
      cmp -s "$W/out/ckpt_job_1.dmtcp" "$imgs/img-5.dmtcp" || echo "MISMATCH" >&2
    else
      $C fetch --app "$app" --node n0 -o "$W/out.img" > /dev/null 2>&1
      cmp -s "$W/out.img" "$imgs/img-5.dmtcp" || echo "MISMATCH" >&2
    fi
    line="$line stores$times fetch $(echo "$(date +%s.%N) - $t0" | bc | cut -c1-5)"
  fi
  echo "$line"
done
