#!/usr/bin/env bash
# Two builds of Cairn on the process path, in one run: a local grid per build (tracker + 6 peers at
# their defaults, roles), then in turns `cairn store` of the same image (a new process each, default
# settings, a new app each round so nothing is deduplicated) and `cairn fetch` of it. Prints wall
# and CPU seconds of the client, and the CPU seconds the grid's processes (tracker + peers) spent
# during the command (from /proc). Use it to measure what a change costs, e.g. #18's tickets:
#   git worktree add /tmp/old HEAD~1 && (cd /tmp/old && ./mvnw -B -q -DskipTests package)
#   it/tools/ab-bench.sh /tmp/old . IMAGE 3
set -euo pipefail
# each command in a process of its own, as measured here: no agent of the user's started or used
export CAIRN_AGENT=${CAIRN_AGENT:-off}
A=$(cd "${1:?build A (repo root)}" && pwd)
B=$(cd "${2:?build B (repo root)}" && pwd)
IMAGE=${3:?image file}
ROUNDS=${4:-3}
W=$(mktemp -d /tmp/ab-bench.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
TCK=$(getconf CLK_TCK)

cpu_of() { # total user+sys CPU seconds of the given pids
  local sum=0 p
  for p in "$@"; do
    [ -r /proc/$p/stat ] || continue
    sum=$((sum + $(awk '{print $14 + $15}' /proc/$p/stat)))
  done
  echo "scale=2; $sum / $TCK" | bc
}

grid() { # grid NAME ROOT PORT
  local name=$1 root=$2 port=$3 gp=()
  java -jar "$root/tracker/target/cairn-tracker.jar" --data "$W/$name/tracker" --listen 127.0.0.1:$port \
    > "$W/$name.tracker.out" 2> "$W/$name.tracker.err" &
  PIDS+=($!); gp+=($!)
  local t=0
  until grep -q "listening on" "$W/$name.tracker.out" 2>/dev/null; do
    sleep 0.2; t=$((t + 1)); [ $t -lt 300 ] || { cat "$W/$name.tracker.err" >&2; exit 1; }
  done
  local url; url=$(grep -o 'listening on [^ ]*' "$W/$name.tracker.out" | cut -d' ' -f3)
  java -jar "$root/tracker/target/cairn-tracker.jar" token create --data "$W/$name/tracker" --role donor --uses 64 > "$W/$name.donor"
  java -jar "$root/tracker/target/cairn-tracker.jar" token create --data "$W/$name/tracker" --role client > "$W/$name.client"
  for i in 1 2 3 4 5 6; do
    java -jar "$root/peer/target/cairn-peer.jar" --tracker "$url" --token-file "$W/$name.donor" --data "$W/$name/p$i" \
      --listen 127.0.0.1:0 --quota 4GiB > "$W/$name.p$i.out" 2> "$W/$name.p$i.err" &
    PIDS+=($!); gp+=($!)
  done
  local waited=0
  until [ "$(grep -l "serving on" "$W/$name".p*.out 2>/dev/null | wc -l)" = 6 ]; do
    sleep 0.2; waited=$((waited + 1))
    [ $waited -lt 300 ] || { echo "peers of $name did not start:" >&2; cat "$W/$name".p*.err >&2; exit 1; }
  done
  sleep 3 # registered
  echo "$url" > "$W/$name.url"
  echo "${gp[*]}" > "$W/$name.pids"
}

grid a "$A" 17711
grid b "$B" 17712
echo "A=$A B=$B image $(stat -c %s "$IMAGE") bytes, $ROUNDS rounds" >&2
printf "round\tbuild\top\twall_s\tclient_cpu_s\tgrid_cpu_s\n"
run() { # run BUILD OP ARGS...
  local name=$1 op=$2; shift 2
  local root=$A; [ "$name" = b ] && root=$B
  local pids; read -r -a pids < "$W/$name.pids"
  local before; before=$(cpu_of "${pids[@]}")
  export CAIRN_KEY_DIR=$W/keys-$name
  /usr/bin/time -f "%e %U %S" -o "$W/t" java -jar "$root/client-cli/target/cairn.jar" --tracker "$(cat "$W/$name.url")" \
    --token-file "$W/$name.client" "$@" > /dev/null
  sleep 1 # the peers' last acknowledgements and heartbeats
  local after; after=$(cpu_of "${pids[@]}")
  read -r e u s < "$W/t"
  printf "%s\t%s\t%s\t%s\t%.2f\t%.2f\n" "$r" "$name" "$op" "$e" "$(echo "$u + $s" | bc)" "$(echo "$after - $before" | bc)"
}
for r in $(seq 1 "$ROUNDS"); do
  for name in a b; do
    run $name store store "$IMAGE" --app "bench$r" --node n
    run $name fetch fetch --app "bench$r" --node n -o "$W/out-$name"
    cmp -s "$IMAGE" "$W/out-$name" || { echo "fetch of round $r ($name) differs" >&2; exit 1; }
    rm -f "$W/out-$name"
  done
done
