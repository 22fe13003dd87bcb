#!/usr/bin/env bash
# What a CRIU dump sends as a plain version and as a part of a checkpoint set, from one running process:
# a local grid (tracker + 2 peers), a Python process holding 32 MiB of random bytes that changes 16
# scattered bytes a second, and ROUNDS rounds 10 s apart of `cairn criu dump --json` as a plain version
# (app mplain) and as `--part 0 --parts 1 --set rN` (app mset: no dedup between the two). Prints each
# dump's size, chunks, new chunks, compressed and sent bytes. Needs root and CRIU ($CAIRN_CRIU, else
# ~/.cache/cairn/criu/sbin/criu); run from the repo root after a package:
#   it/tools/criu-set-bytes.sh [ROUNDS]
set -euo pipefail
ROUNDS=${1:-4}
JAR=$(pwd)/client-cli/target/cairn.jar
W=$(mktemp -d /tmp/criu-set-bytes.XXXXXX)
export CAIRN_KEY_DIR=$W/keys CAIRN_BASE_CACHE=$W/bases CAIRN_AGENT=off
export CAIRN_CRIU=${CAIRN_CRIU:-$HOME/.cache/cairn/criu/sbin/criu}
cat > "$W/mem.py" <<'PY'
import os, time
buf = bytearray(os.urandom(32 << 20))
i = 0
while True:
    for k in range(16):
        off = ((i * 16 + k) * 2654435761) % len(buf)
        buf[off] = (buf[off] + 1) & 255
    i += 1
    time.sleep(1)
PY
java -jar "$JAR" grid up --dir "$W/grid" --peers 2 > "$W/up.txt"
trap 'kill $PID 2>/dev/null; java -jar "$JAR" grid down --dir "$W/grid" > /dev/null' EXIT
C=(java -jar "$JAR" --tracker "$(awk '/^tracker:/{print $2}' "$W/up.txt")" --token-file "$(awk '/^token file:/{print $3}' "$W/up.txt")")
setsid python3 "$W/mem.py" < /dev/null > /dev/null 2>&1 &
PID=$!
sleep 3
show() { python3 -c "import json,sys; d=json.load(sys.stdin); print('$1', d['size'], d['chunks'], d['newChunks'], d['compressedBytes'], d['sentBytes'])"; }
echo "dump size chunks new compressed sent   (load: $(cut -d' ' -f1-3 /proc/loadavg))"
for r in $(seq 1 "$ROUNDS"); do
  "${C[@]}" criu dump --app mplain --node n --redundancy replicate:2 --json $PID | show "plain-$r"
  "${C[@]}" criu dump --app mset --node n --redundancy replicate:2 --part 0 --parts 1 --set "r$r" --json $PID | show "set-$r"
  sleep 10
done
