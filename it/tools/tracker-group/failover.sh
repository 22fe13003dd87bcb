#!/usr/bin/env bash
# Leader failover of a three-member tracker group on this machine ("a new leader serves
# writes within 5 s"): start t1..t3, then ROUNDS times SIGKILL the leader, time until another member
# commits an authorised write (POST /api/v1/policy, one log entry), restart the
# killed member. Prints one line per round and the worst.
#   ./mvnw -B -q -DskipTests package && it/tools/tracker-group/failover.sh [ROUNDS]   (--tls-ca, HTTPS)
set -euo pipefail
cd "$(dirname "$0")/../../.."
ROUNDS=${1:-5}
DIR=$(mktemp -d /tmp/cairn-failover.XXXXXX)
trap 'pkill -f "cairn-tracker.jar --data $DIR" || true' EXIT
# shellcheck source=group-env.sh
. it/tools/tracker-group/group-env.sh
PEERS="t1=127.0.0.1:19711,t2=127.0.0.1:19712,t3=127.0.0.1:19713"
start() { # member number
  java -jar tracker/target/cairn-tracker.jar --data "$DIR/t$1" --listen 127.0.0.1:1970$1 --token-file "$DIR/token" \
    --peers "$PEERS" --id "t$1" "${TLS_ARGS[@]}" >> "$DIR/t$1.log" 2>&1 &
}
leader() {
  for i in 1 2 3; do
    curl -ks -m 1 $SCHEME://127.0.0.1:1970$i/api/v1/cluster 2>/dev/null | python3 -c 'import sys,json; print(json.load(sys.stdin)["leader"])' 2>/dev/null && return
  done
}
writes() { # member number: 0 if it commits a write
  [ "$(curl -ks -m 2 -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $BEARER" \
    -H 'Content-Type: application/json' -d '{"app":"failover-probe","folder":"keep-all"}' $SCHEME://127.0.0.1:1970$1/api/v1/policy)" = 200 ]
}
for i in 1 2 3; do start $i; done
until L=$(leader) && [ -n "$L" ] && writes "${L#t}"; do sleep 0.2; done
worst=0
for r in $(seq 1 "$ROUNDS"); do
  L=$(leader); n=${L#t}
  pkill -9 -f "cairn-tracker.jar --data $DIR/t$n " ; t0=$(date +%s.%N)
  while :; do
    for i in 1 2 3; do
      if [ "$i" != "$n" ] && writes "$i"; then break 2; fi
    done
    sleep 0.05
  done
  s=$(echo "$(date +%s.%N) - $t0" | bc)
  echo "round $r: killed $L, t$i commits writes after ${s} s"
  worst=$(echo "if ($s > $worst) $s else $worst" | bc)
  start "$n"; sleep 5 # it rejoins as a follower
done
echo "worst: ${worst} s (election timeout 1-2 s)"
