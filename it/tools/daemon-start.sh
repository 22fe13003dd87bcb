#!/usr/bin/env bash
# CPU of a tracker's and a peer's start (CI time: the suite starts several hundred of each), with the flags the
# integration tests give them (it/.../TestJvm: -Xmx256m, C1 only, a class-data archive trained once per build here).
# For each build (a checkout whose jars are built), ROUNDS alternating rounds: a tracker until "listening on", then a
# peer until "serving on"; prints /proc ticks (1/100 s) of each at that point.
#   it/tools/daemon-start.sh [ROUNDS] BUILD_DIR...     e.g. it/tools/daemon-start.sh 4 /tmp/old .
set -euo pipefail
ROUNDS=${1:-4}; shift
[ $# -ge 1 ] || set -- "$(cd "$(dirname "$0")/../.." && pwd)"
W=$(mktemp -d /tmp/daemon-start.XXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
once() { # once BUILD TRACKER_FLAGS PEER_FLAGS -> "tracker T peer P"
  local r=$1 d t p url
  d=$(mktemp -d "$W/run.XXXX")
  # shellcheck disable=SC2086
  java -Xmx256m -XX:TieredStopAtLevel=1 $2 -jar "$r/tracker/target/cairn-tracker.jar" --data "$d/tracker" --listen 127.0.0.1:0 > "$d/t.out" 2> "$d/t.err" &
  t=$!
  until grep -q "listening on" "$d/t.out" 2>/dev/null; do sleep 0.05; done
  echo -n "tracker $(awk '{print $14 + $15}' /proc/$t/stat) "
  url=$(grep -o 'listening on [^ ]*' "$d/t.out" | cut -d' ' -f3)
  java -jar "$r/tracker/target/cairn-tracker.jar" token create --data "$d/tracker" --role donor --uses 64 > "$d/donor"
  # shellcheck disable=SC2086
  java -Xmx256m -XX:TieredStopAtLevel=1 $3 -jar "$r/peer/target/cairn-peer.jar" --tracker "$url" --data "$d/p" --listen 127.0.0.1:0 \
    --quota 64MiB --min-free 0 --token-file "$d/donor" --heartbeat-interval 500ms > "$d/p.out" 2> "$d/p.err" &
  p=$!
  until grep -q "serving on" "$d/p.out" 2>/dev/null; do sleep 0.05; done
  echo "peer $(awk '{print $14 + $15}' /proc/$p/stat)"
  kill $p; wait $p || true; kill $t; wait $t || true
}
n=0
for b in "$@"; do # train each build's archives (a graceful stop writes them)
  n=$((n + 1)); once "$b" "-XX:ArchiveClassesAtExit=$W/$n-t.jsa -Xlog:cds=off" "-XX:ArchiveClassesAtExit=$W/$n-p.jsa -Xlog:cds=off" > /dev/null
done
for r in $(seq "$ROUNDS"); do
  n=0
  for b in "$@"; do
    n=$((n + 1)); echo "round $r build $b: $(once "$b" "-XX:SharedArchiveFile=$W/$n-t.jsa -Xlog:cds=off" "-XX:SharedArchiveFile=$W/$n-p.jsa -Xlog:cds=off")"
  done
done
