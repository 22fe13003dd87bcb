#!/usr/bin/env bash
# The grid simulator against real trackers on this machine (docs/simulation.md): starts a lone tracker ("lone") or a
# group of three over Ratis ("group"; --tls-ca, HTTPS, mutual TLS between members), all with TLS and the given
# heartbeat interval, then runs sim/target/cairn-sim.jar with DONORS donors for MINUTES steady minutes, the trackers'
# pids given so the leader's CPU is measured. Extra arguments go to cairn-sim (e.g. --json, --no-outages).
#   ./mvnw -B -q -DskipTests package && it/tools/grid-sim.sh lone|group DONORS MINUTES [INTERVAL, default 5s] [cairn-sim flags...]
#   (TRACKER_JAVA_OPTS: JVM flags for the trackers; SIM_JAVA_OPTS: for the simulator, default -Xmx2g;
#    TRACKER_JAR, SIM_JAR: other builds' jars, e.g. to compare with main's; GRID_SIM_PORT: the first tracker's port,
#    default 19931, the others' follow and their Raft ports are 10 below, so two runs on one machine need not collide;
#    TRACKER_NICE: the trackers' nice value, e.g. 19 to starve them of CPU beside other work)
set -euo pipefail
cd "$(dirname "$0")/../.."
MODE=${1:?lone or group}
DONORS=${2:?donors}
MINUTES=${3:?steady minutes}
INTERVAL=${4:-5s}
shift $(( $# < 4 ? $# : 4 ))
DIR=$(mktemp -d /tmp/cairn-sim.XXXXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
# shellcheck source=tracker-group/group-env.sh
. it/tools/tracker-group/group-env.sh
case "$MODE" in
  lone) N=1 ;;
  group) N=3 ;;
  *) echo "grid-sim.sh: the first argument is lone or group, not $MODE" >&2; exit 2 ;;
esac
PORT=${GRID_SIM_PORT:-19931}
MEMBERS="t1=127.0.0.1:$((PORT - 10)),t2=127.0.0.1:$((PORT - 9)),t3=127.0.0.1:$((PORT - 8))"
URLS=()
for i in $(seq 1 "$N"); do
  GROUP_ARGS=()
  [ "$N" -gt 1 ] && GROUP_ARGS=(--peers "$MEMBERS" --id "t$i")
  # shellcheck disable=SC2086
  nice -n "${TRACKER_NICE:-0}" java ${TRACKER_JAVA_OPTS:-} -jar "${TRACKER_JAR:-tracker/target/cairn-tracker.jar}" --data "$DIR/t$i" --listen "127.0.0.1:$((PORT + i - 1))" --token-file "$DIR/token" \
    --heartbeat-interval "$INTERVAL" "${GROUP_ARGS[@]}" "${TLS_ARGS[@]}" >> "$DIR/t$i.log" 2>&1 &
  PIDS+=($!)
  URLS+=("$SCHEME://127.0.0.1:$((PORT + i - 1))")
done
until [ "$(curl -ks -m 1 -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $BEARER" "${URLS[0]}/api/v1/cluster")" = 200 ] \
  && curl -ks -m 1 -H "Authorization: Bearer $BEARER" "${URLS[0]}/api/v1/cluster" | grep -q '"leader":"'; do
  for p in "${PIDS[@]}"; do
    kill -0 "$p" 2>/dev/null || { echo "grid-sim.sh: a tracker exited (see $DIR/t*.log; another run on port $PORT? set GRID_SIM_PORT)" >&2; exit 2; }
  done
  sleep 0.3
done
echo "trackers up (logs in $DIR)" >&2
# shellcheck disable=SC2086
java ${SIM_JAVA_OPTS:--Xmx2g} -jar "${SIM_JAR:-sim/target/cairn-sim.jar}" --tracker "$(IFS=,; echo "${URLS[*]}")" --token-file "$DIR/token" \
  --tracker-pid "$(IFS=,; echo "${PIDS[*]}")" --donors "$DONORS" --minutes "$MINUTES" "$@"
