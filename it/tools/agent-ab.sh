#!/usr/bin/env bash
# A/B of two builds of the agent on one grid: agent A runs OLD_JAR (a cairn.jar of another build,
# e.g. from `git worktree add /tmp/old REV && (cd /tmp/old && ./mvnw -B -q -DskipTests package)`), agent B
# this checkout's; both warmed by WARM rounds first, then ROUNDS rounds in which each stores the series
# into its own app (A first, then B) and fetches the last image. The thin client is this checkout's
# launcher for both. Per command: wall s, the serving agent's CPU ticks, the peers' and the tracker's CPU ticks.
# PAUSE (seconds, default 0): a pause after each command, as a job computes between checkpoints (work an
# agent does after answering then falls outside the next command's figures, as it does in job-bench.sh).
#   OLD_JAR=/tmp/old/client-cli/target/cairn.jar [OLD_JAVA_OPTS=...] [ROUNDS=3] [WARM=1] [PAUSE=1] it/tools/agent-ab.sh IMAGE...
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 2 ] && [ -n "${OLD_JAR:-}" ] || { echo "usage: OLD_JAR=JAR $0 IMAGE IMAGE..." >&2; exit 2; }
W=$(mktemp -d /tmp/agent-ab.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
C="$ROOT/client-cli/target/cairn"
grid_up 8GiB
agent_up # B: this checkout's agent on $W/agent.sock
B=$AGENT
java ${OLD_JAVA_OPTS:-} -jar "$OLD_JAR" --tracker "$URL" --token-file "$W/client" agent --socket "$W/old.sock" > "$W/old.out" 2> "$W/old.err" &
A=$!; PIDS+=($A)
for _ in $(seq 900); do grep -q "warmed up" "$W/old.err" 2>/dev/null && break; sleep 0.1; done
series() { # series LABEL ROUND PRINT
  local who=$1 r=$2 print=$3 sock pid n=0 a0 p0 t0 a1 p1 t1 img
  if [ "$who" = A ]; then sock=$W/old.sock; pid=$A; else sock=$W/agent.sock; pid=$B; fi
  for img in "${IMAGES[@]}"; do
    a0=$(cpu_of $pid); p0=$(cpu_of "${PEERS[@]}"); t0=$(cpu_of $TRACKER)
    /usr/bin/time -f "%e" -o "$W/t" env CAIRN_AGENT_SOCKET="$sock" "$C" store "$img" --app "$who-$r" --node n > /dev/null 2> "$W/e" \
      || { cat "$W/e" >&2; exit 1; }
    a1=$(cpu_of $pid); p1=$(cpu_of "${PEERS[@]}"); t1=$(cpu_of $TRACKER)
    sleep "${PAUSE:-0}"
    [ "$print" = 1 ] && printf "%s\t%s\tstore\t%s\t%s\t%s\t%s\t%s\n" "$who" "$r" "$n" "$(cat "$W/t")" $((a1 - a0)) $((p1 - p0)) $((t1 - t0))
    n=$((n + 1))
  done
  a0=$(cpu_of $pid); p0=$(cpu_of "${PEERS[@]}")
  /usr/bin/time -f "%e" -o "$W/t" env CAIRN_AGENT_SOCKET="$sock" "$C" fetch --app "$who-$r" --node n -o "$W/out" > /dev/null 2> "$W/e" \
    || { cat "$W/e" >&2; exit 1; }
  a1=$(cpu_of $pid); p1=$(cpu_of "${PEERS[@]}")
  cmp -s "$W/out" "${IMAGES[$((${#IMAGES[@]} - 1))]}" || { echo "fetch ($who) differs from the image" >&2; exit 1; }
  [ "$print" = 1 ] && printf "%s\t%s\tfetch\t%s\t%s\t%s\t%s\n" "$who" "$r" "-" "$(cat "$W/t")" $((a1 - a0)) $((p1 - p0))
  return 0
}
IMAGES=("$@")
for r in $(seq "${WARM:-1}"); do series A "w$r" 0; series B "w$r" 0; done
printf "agent\tround\top\timage\twall_s\tagent_ticks\tpeers_ticks\ttracker_ticks\n"
for r in $(seq "${ROUNDS:-3}"); do series A "$r" 1; series B "$r" 1; done
