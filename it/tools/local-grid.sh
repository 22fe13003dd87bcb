# Sourced by the benchmark scripts: a local grid as an operator and donors start one (a tracker with
# roles, 6 peers with their defaults and a donor token) and a warmed `cairn agent` with a client token.
# Expects ROOT (the checkout), W (a scratch directory) and PIDS (an array the caller's trap kills).
# the scripts measure commands in their own process or an agent they start: none of the user's is started or used
export CAIRN_AGENT=${CAIRN_AGENT:-off}
TCK=$(getconf CLK_TCK)
# sys_of PID...: the kernel's share (stime) of cpu_of, in ticks
sys_of() { local sum=0 p; for p in "$@"; do [ -r /proc/$p/stat ] && sum=$((sum + $(awk '{print $15}' /proc/$p/stat))); done; echo "$sum"; }
cpu_of() { local sum=0 p; for p in "$@"; do [ -r /proc/$p/stat ] && sum=$((sum + $(awk '{print $14 + $15}' /proc/$p/stat))); done; echo "$sum"; }

# grid_up QUOTA: sets URL, TRACKER and PEERS; writes $W/donor and $W/client. PEER_JAVA_OPTS and TRACKER_JAVA_OPTS add JVM flags;
# TRACKER_JAR runs another build's tracker. PEER_B_JAVA_OPTS, if set, replaces PEER_JAVA_OPTS for peers 4-6 (an A/B
# comparison inside one grid: it/tools/peer-ab.sh); PEER_B_LAUNCHER (another build's peer/target/cairn-peer) starts peers
# 4-6 through it, PEER_LAUNCHER the others.
# Peers start through peer/target/cairn-peer (the donor's launcher); PEER_JAR runs `java -jar PEER_JAR` instead (another
# build, or the jar with the JVM's default flags: an A/B comparison).
grid_up() {
  local quota=$1 i
  # shellcheck disable=SC2086
  java ${TRACKER_JAVA_OPTS:-} -jar "${TRACKER_JAR:-$ROOT/tracker/target/cairn-tracker.jar}" --data "$W/tracker" --listen 127.0.0.1:0 > "$W/tracker.out" 2> "$W/tracker.err" &
  TRACKER=$!; PIDS+=($TRACKER)
  until grep -q "listening on" "$W/tracker.out" 2>/dev/null; do sleep 0.2; done
  URL=$(grep -o 'listening on [^ ]*' "$W/tracker.out" | cut -d' ' -f3)
  java -jar "$ROOT/tracker/target/cairn-tracker.jar" token create --data "$W/tracker" --role donor --uses 64 > "$W/donor"
  java -jar "$ROOT/tracker/target/cairn-tracker.jar" token create --data "$W/tracker" --role client > "$W/client"
  PEERS=()
  for i in 1 2 3 4 5 6; do
    local popts=${PEER_JAVA_OPTS:-}
    local launcher=${PEER_LAUNCHER:-$ROOT/peer/target/cairn-peer}
    if [ "$i" -ge 4 ] && [ -n "${PEER_B_JAVA_OPTS+x}" ]; then popts=$PEER_B_JAVA_OPTS; fi
    if [ "$i" -ge 4 ] && [ -n "${PEER_B_LAUNCHER:-}" ]; then launcher=$PEER_B_LAUNCHER; fi
    if [ -n "${PEER_JAR:-}" ]; then
      # shellcheck disable=SC2086
      java $popts -jar "$PEER_JAR" --tracker "$URL" --token-file "$W/donor" --data "$W/p$i" \
        --listen 127.0.0.1:0 --quota "$quota" > "$W/p$i.out" 2> "$W/p$i.err" &
    else # as a donor starts it: the launcher, with its flags
      CAIRN_PEER_JAVA_OPTS=$popts "$launcher" --tracker "$URL" --token-file "$W/donor" --data "$W/p$i" \
        --listen 127.0.0.1:0 --quota "$quota" > "$W/p$i.out" 2> "$W/p$i.err" &
    fi
    PIDS+=($!); PEERS+=($!)
  done
  until [ "$(grep -l "serving on" "$W"/p*.out 2>/dev/null | wc -l)" = 6 ]; do sleep 0.2; done
  sleep 3 # registered
}

# agent_start NAME [ARG...]: starts an agent through the launcher on $W/NAME.sock (keys in $W/keys; ARGs added to its
# command line, CAIRN_JAVA_OPTS as the caller sets it), sets AGENT_PID, waits for its JIT warm-up
agent_start() {
  local name=$1
  shift
  export CAIRN_KEY_DIR=$W/keys
  "$ROOT/client-cli/target/cairn" --tracker "$URL" --token-file "$W/client" agent --socket "$W/$name.sock" "$@" \
    > "$W/$name.out" 2> "$W/$name.err" &
  AGENT_PID=$!; PIDS+=($AGENT_PID)
  for _ in $(seq 900); do grep -q "warmed up" "$W/$name.err" 2>/dev/null && break; sleep 0.1; done
}

# agent_up: starts the agent on $W/agent.sock (keys in $W/keys), sets AGENT, waits for its JIT warm-up
# (an agent is started ahead of the job: prologue, systemd unit)
agent_up() {
  agent_start agent
  AGENT=$AGENT_PID
  grep -o "warmed up.*" "$W/agent.err" >&2 || true
}

# agent_store IMAGE APP: stores IMAGE through the agent (agent_up first) as APP's node n; on failure prints the CLI's
# stderr and exits
agent_store() {
  CAIRN_AGENT_SOCKET=$W/agent.sock "$ROOT/client-cli/target/cairn" store "$1" --app "$2" --node n > /dev/null 2> "$W/err" \
    || { cat "$W/err" >&2; exit 1; }
}

# fill_index PREFIX APPS IMAGE...: every IMAGE stored through the agent under APPS apps (PREFIX1 .. PREFIX<APPS>), so
# the tracker's index holds what a grid that has served for a while holds
fill_index() {
  local prefix=$1 apps=$2 a img
  shift 2
  for a in $(seq "$apps"); do
    for img in "$@"; do agent_store "$img" "$prefix$a"; done
  done
}

# index_chunks: how many chunks the tracker's index holds (its status)
index_chunks() {
  "$ROOT/client-cli/target/cairn" --tracker "$URL" --token-file "$W/client" status --json 2> /dev/null \
    | grep -o '"chunks":[0-9]*' | head -1 | cut -d: -f2
}
