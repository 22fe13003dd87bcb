#!/usr/bin/env bash
# The job's path (#19): one `cairn` process per checkpoint, as a job script runs it, with and without
# a resident `cairn agent`, beside `borg create` / `borg extract` on the same images in the same run.
# A local grid (tracker + 6 peers at their defaults, roles), the client token, default store settings.
# Per command: wall s, CPU-s of the command's process, of the agent, of the peers and of the tracker
# (from /proc, during the command and 1 s after). Then the latest image is fetched each way.
#   ./mvnw -B -q -DskipTests package && it/tools/job-bench.sh IMAGE...
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 IMAGE..." >&2; exit 2; }
W=$(mktemp -d /tmp/job-bench.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
TCK=$(getconf CLK_TCK)
CAIRN="$ROOT/client-cli/target/cairn"
cpu_of() { local sum=0 p; for p in "$@"; do [ -r /proc/$p/stat ] && sum=$((sum + $(awk '{print $14 + $15}' /proc/$p/stat))); done; echo "$sum"; }
secs() { echo "scale=2; $1 / $TCK" | bc; }

java -jar "$ROOT/tracker/target/cairn-tracker.jar" --data "$W/tracker" --listen 127.0.0.1:0 > "$W/tracker.out" 2> "$W/tracker.err" &
TRACKER=$!; PIDS+=($TRACKER)
until grep -q "listening on" "$W/tracker.out" 2>/dev/null; do sleep 0.2; done
URL=$(grep -o 'listening on [^ ]*' "$W/tracker.out" | cut -d' ' -f3)
java -jar "$ROOT/tracker/target/cairn-tracker.jar" token create --data "$W/tracker" --role donor > "$W/donor"
java -jar "$ROOT/tracker/target/cairn-tracker.jar" token create --data "$W/tracker" --role client > "$W/client"
PEERS=()
for i in 1 2 3 4 5 6; do
  java -jar "$ROOT/peer/target/cairn-peer.jar" --tracker "$URL" --token-file "$W/donor" --data "$W/p$i" \
    --listen 127.0.0.1:0 --quota 8GiB > "$W/p$i.out" 2> "$W/p$i.err" &
  PIDS+=($!); PEERS+=($!)
done
until [ "$(grep -l "serving on" "$W"/p*.out 2>/dev/null | wc -l)" = 6 ]; do sleep 0.2; done
sleep 3
export CAIRN_KEY_DIR=$W/keys
"$CAIRN" --tracker "$URL" --token-file "$W/client" agent --socket "$W/agent.sock" > "$W/agent.out" 2> "$W/agent.err" &
AGENT=$!; PIDS+=($AGENT)
until [ -S "$W/agent.sock" ]; do sleep 0.1; done
# an agent is started ahead of the job (prologue, systemd unit): let its JIT warm-up finish first
for _ in $(seq 900); do grep -q "warmed up" "$W/agent.err" && break; sleep 0.1; done
grep -o "warmed up.*" "$W/agent.err" >&2 || true
borg init --encryption none "$W/borg" > /dev/null 2>&1

printf "image\tway\top\twall_s\tcmd_cpu_s\tagent_cpu_s\tpeers_cpu_s\ttracker_cpu_s\n"
run() { # run IMAGE WAY OP COMMAND...
  local img=$1 way=$2 op=$3; shift 3
  local a0 p0 t0 a1 p1 t1
  a0=$(cpu_of $AGENT); p0=$(cpu_of "${PEERS[@]}"); t0=$(cpu_of $TRACKER)
  /usr/bin/time -f "%e %U %S" -o "$W/t" "$@" > /dev/null 2> "$W/cmd.err" || { cat "$W/cmd.err" >&2; exit 1; }
  sleep 1
  a1=$(cpu_of $AGENT); p1=$(cpu_of "${PEERS[@]}"); t1=$(cpu_of $TRACKER)
  read -r e u s < "$W/t"
  printf "%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\n" "$img" "$way" "$op" "$e" "$(echo "$u + $s" | bc)" "$(secs $((a1 - a0)))" \
    "$(secs $((p1 - p0)))" "$(secs $((t1 - t0)))"
}
C=(--tracker "$URL" --token-file "$W/client")
n=0
for img in "$@"; do
  n=$((n + 1))
  run "$n" borg store borg create --compression lz4 "$W/borg::i$n" "$img"
  CAIRN_AGENT_SOCKET=$W/agent.sock run "$n" agent store "$CAIRN" store "$img" --app agent --node n
  run "$n" process store "$CAIRN" "${C[@]}" store "$img" --app proc --node n
  CAIRN_AGENT_SOCKET=$W/agent.sock run "$n" async store "$CAIRN" store "$img" --app async --node n --async
  CAIRN_AGENT_SOCKET=$W/agent.sock run "$n" async wait "$CAIRN" wait --app async --node n
done
last=$#
run "$last" borg fetch sh -c "borg extract --stdout '$W/borg::i$last' > '$W/out-borg'"
CAIRN_AGENT_SOCKET=$W/agent.sock run "$last" agent fetch "$CAIRN" fetch --app agent --node n -o "$W/out-agent"
run "$last" process fetch "$CAIRN" "${C[@]}" fetch --app proc --node n -o "$W/out-proc"
for f in borg agent proc; do cmp -s "${!last}" "$W/out-$f" || { echo "fetch ($f) differs from the image" >&2; exit 1; }; done
CAIRN_AGENT_SOCKET=$W/agent.sock run "$last" agent versions "$CAIRN" versions --app agent --node n
