#!/usr/bin/env bash
# The agent's memory and CPU when idle (#64's target: <= 150 MB resident, CPU ~0): a local grid, an agent started
# through the launcher as a job host starts it (its own JVM flags), IMAGE... stored through it, then SAMPLES samples
# (default 8) EVERY seconds apart (default 60) of its resident memory and CPU ticks (1/100 s) while nothing is asked of
# it. The agent gives its heap and C heap back 30 s after its last command and again every 5 idle minutes.
# CAIRN_JAVA_OPTS adds JVM flags to the agent (an A/B of flags).
#   ./mvnw -B -q -DskipTests package && it/tools/agent-idle.sh /tmp/ser/imgs/img-{0..2}.dmtcp
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d /tmp/agent-idle.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
grid_up 8GiB
agent_start agent
for img in "$@"; do agent_store "$img" idle; done
J=$(pgrep -P "$AGENT_PID" java || echo "$AGENT_PID")
rss() { awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$J/status"; }
printf "idle_s\trss_mb\tcpu_ticks\n"
for i in $(seq "${SAMPLES:-8}"); do
  sleep "${EVERY:-60}"
  printf "%s\t%s\t%s\n" $((i * ${EVERY:-60})) "$(rss)" "$(cpu_of "$J")"
done
