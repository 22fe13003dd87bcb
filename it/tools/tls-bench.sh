#!/usr/bin/env bash
# TLS against plaintext on the process path: two local grids on this machine, one tracker with its
# defaults (both planes TLS) and one with --insecure-plain-http, each with 6 peers at their defaults; then, in turns,
# `cairn store` of the same image (a new process each, started by the launcher client-cli/target/cairn as a job
# script starts it: its class-data-sharing archive and one-shot JIT flags; default settings, a new app each round so
# nothing is deduplicated) and `cairn fetch` of it, timed with /usr/bin/time.
# Usage: it/tools/tls-bench.sh IMAGE [ROUNDS]   (build first: ./mvnw -B -DskipTests package)
# With AGENT=1 each grid gets a warmed `cairn agent` (client token) and the commands are thin ones
# handed to it, which takes the client JVM's start-up and JIT out of the comparison.
# PEER_JAVA_OPTS, AGENT_JAVA_OPTS and CLIENT_JAVA_OPTS add JVM flags to the peers, agents and per-process
# clients (a profiler, say; %m in them becomes the grid's name, plain or tls); CLIENT_JAVA_OPTS goes to the
# launcher as CAIRN_JAVA_OPTS (after its own flags).
set -euo pipefail
# each command in a process of its own, as measured here: no agent of the user's started or used
export CAIRN_AGENT=${CAIRN_AGENT:-off}
IMAGE=${1:?image file}
ROUNDS=${2:-3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T=$ROOT/tracker/target/cairn-tracker.jar P=$ROOT/peer/target/cairn-peer.jar C=$ROOT/client-cli/target/cairn.jar
L=$ROOT/client-cli/target/cairn
unset CAIRN_AGENT_SOCKET CAIRN_TRACKER CAIRN_JAVA_OPTS
W=$(mktemp -d /tmp/tls-bench.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT

grid() { # grid NAME PORT EXTRA...
  local name=$1 port=$2; shift 2
  java -jar "$T" --data "$W/$name/tracker" --listen 127.0.0.1:$port "$@" > "$W/$name.tracker.out" 2> "$W/$name.tracker.err" &
  PIDS+=($!); echo $! > "$W/$name.tracker.pid"
  local t=0
  until grep -q "listening on" "$W/$name.tracker.out" 2>/dev/null; do
    sleep 0.2; t=$((t + 1)); [ $t -lt 300 ] || { cat "$W/$name.tracker.err" >&2; exit 1; }
  done
  local url; url=$(grep -o 'listening on [^ ]*' "$W/$name.tracker.out" | cut -d' ' -f3)
  java -jar "$T" token create --data "$W/$name/tracker" --role donor --uses 64 > "$W/$name.donor"
  java -jar "$T" token create --data "$W/$name/tracker" --role client > "$W/$name.client"
  for i in 1 2 3 4 5 6; do
    # shellcheck disable=SC2086
    java ${PEER_JAVA_OPTS:+${PEER_JAVA_OPTS//%m/$name}} -jar "$P" --tracker "$url" --token-file "$W/$name.donor" --data "$W/$name/p$i" --listen 127.0.0.1:0 --quota 4GiB \
      > "$W/$name.p$i.out" 2> "$W/$name.p$i.err" &
    PIDS+=($!); echo $! >> "$W/$name.peers.pid"
  done
  local waited=0
  until [ "$(grep -l "serving on" "$W/$name".p*.out 2>/dev/null | wc -l)" = 6 ]; do
    sleep 0.2; waited=$((waited + 1))
    [ $waited -lt 300 ] || { echo "peers of $name did not start:" >&2; cat "$W/$name".p*.err >&2; exit 1; }
  done
  sleep 3 # registered and certified
  URL=$url
}

grid plain 17701 --insecure-plain-http; PLAIN=$URL
grid tls 17702; TLS=$URL
if [ "${AGENT:-0}" = 1 ]; then
  for mode in plain tls; do
    url=$PLAIN; [ $mode = tls ] && url=$TLS
    # shellcheck disable=SC2086
    CAIRN_KEY_DIR=$W/keys-$mode java ${AGENT_JAVA_OPTS:+${AGENT_JAVA_OPTS//%m/$mode}} -jar "$C" --tracker "$url" --token-file "$W/$mode.client" agent --socket "$W/$mode.sock" \
      > "$W/$mode.agent.out" 2> "$W/$mode.agent.err" &
    PIDS+=($!); echo $! > "$W/$mode.agent.pid"
  done
  for mode in plain tls; do
    for _ in $(seq 900); do grep -q "warmed up" "$W/$mode.agent.err" 2>/dev/null && break; sleep 0.1; done
  done
fi
cli() { # cli MODE ARGS...: a new cairn process (thin, handed to the agent, with AGENT=1)
  local mode=$1; shift
  local url=$PLAIN; [ $mode = tls ] && url=$TLS
  if [ "${AGENT:-0}" = 1 ]; then
    CAIRN_AGENT_SOCKET=$W/$mode.sock java -jar "$C" "$@"
  else
    # shellcheck disable=SC2086
    CAIRN_KEY_DIR=$W/keys-$mode CAIRN_JAVA_OPTS=${CLIENT_JAVA_OPTS:+${CLIENT_JAVA_OPTS//%m/$mode}} "$L" --tracker "$url" --token-file "$W/$mode.client" "$@"
  fi
}
export -f cli; export PLAIN TLS W C L AGENT CLIENT_JAVA_OPTS
echo "grids: plain $PLAIN, tls $TLS; image $(stat -c %s "$IMAGE") bytes; $ROUNDS rounds" >&2
# where the CPU went during the rounds (not the grids' start), per grid: the tracker, the six peers, the agent
cpu() { local t=0 p; for p in $(cat "$@" 2>/dev/null); do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0))); done; echo $t; }
declare -A BEFORE
for mode in plain tls; do for part in tracker peers agent; do BEFORE[$mode.$part]=$(cpu "$W/$mode.$part.pid"); done; done
printf "round\tmode\top\twall_s\tcpu_s\n"
for r in $(seq 1 "$ROUNDS"); do
  for mode in plain tls; do
    /usr/bin/time -f "%e %U %S" -o "$W/t" bash -c 'cli "$@"' cli $mode store "$IMAGE" --app "bench$r" --node n > /dev/null
    read -r e u s < "$W/t"; printf "%s\t%s\tstore\t%s\t%.2f\n" "$r" $mode "$e" "$(echo "$u + $s" | bc)"
    /usr/bin/time -f "%e %U %S" -o "$W/t" bash -c 'cli "$@"' cli $mode fetch --app "bench$r" --node n -o "$W/out-$mode" > /dev/null
    read -r e u s < "$W/t"; printf "%s\t%s\tfetch\t%s\t%.2f\n" "$r" $mode "$e" "$(echo "$u + $s" | bc)"
    cmp -s "$IMAGE" "$W/out-$mode" || { echo "fetch of round $r ($mode) differs" >&2; exit 1; }
    rm -f "$W/out-$mode"
  done
done
for mode in plain tls; do
  line="cpu_s during the rounds, $mode:"
  for part in tracker peers agent; do
    line="$line $part $(echo "scale=1; ($(cpu "$W/$mode.$part.pid") - ${BEFORE[$mode.$part]}) / $(getconf CLK_TCK)" | bc)"
  done
  echo "$line" >&2
done
