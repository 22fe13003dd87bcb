#!/usr/bin/env bash
# The yardstick: Cairn beside what a user would otherwise pick for a job's checkpoints, on the same cores in one run:
# a real erasure-coded distributed file system (GlusterFS, a disperse 4+2 volume over six bricks) and a local backup
# tool (borg). IMAGE... are a job's successive checkpoints, in order (e.g. DMTCP images).
# Per image: Cairn `store` (default settings) the default way, through this user's self-starting agent (the first
# store runs in its own process and starts the agent; the later ones are handed to it), and with CAIRN_AGENT=off (one
# process per command); Gluster `dd if=IMAGE of=MOUNT/stepN bs=4M conv=fsync` (a checkpoint is safe once durable)
# and a `latest` symlink; `borg create` into a local repository (`borg init -e none`, default compression).
# Then the restart, on "a host that never ran the job": the latest image read back from each system after
# `sync; echo 3 > /proc/sys/vm/drop_caches` (Cairn `fetch` in a process of its own with an empty base cache, Gluster
# `cat MOUNT/latest`, `borg extract --stdout`), each compared with the image.
# Prints a TSV (system, op, image, wall_s), then the ratios: other system's wall time / Cairn's (higher is better for
# Cairn) for the first image's store, the successors' stores (median over images 2..N of each image's ratio) and the
# fetch.
# Gluster (Debian's glusterfs-server; borgbackup for borg; run as root) runs in a network namespace of its own, NS
# (cairn-gluster): Gluster refuses bricks on 127.0.0.1, so the namespace's loopback gets 10.213.0.1; glusterd runs there
# (`ip netns exec`) with its state, run and log directories under /tmp/NS, the volume's bricks are /tmp/NS/b1..b6 on
# 10.213.0.1 (`force`: one server, the root file system), and the volume is mounted by a FUSE client that runs in the
# namespace's network but the host's mount namespace (`nsenter --net`), so every process here sees the mount.
# Everything is torn down at exit, and whatever a crashed run left is cleared first.
# GRID_WARM (default 2): rounds of a 64 MiB random file (shares nothing with the images) stored and fetched through
# Cairn (one process each) and written and read through Gluster first, so the long-running services have served
# before, as they would have on a grid or a cluster that has run for a while (0: started just now).
# SETTLE (default 2): seconds idle after each measured command (the peers' and bricks' work after it, out of the next
# command's window). KEEP_LOGS=DIR keeps the grid's, the agent's and Gluster's logs.
#   apt-get install -y glusterfs-server borgbackup
#   ./mvnw -B -q -DskipTests package && it/tools/gluster-bench.sh /tmp/ser/imgs/img-{0..5}.dmtcp
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 IMAGE..." >&2; exit 2; }
for img in "$@"; do [ -r "$img" ] || { echo "cannot read $img" >&2; exit 2; }; done
[ "$(id -u)" = 0 ] || { echo "$0 runs as root (network namespace, FUSE mount, drop_caches)" >&2; exit 2; }
for c in glusterd gluster glusterfsd borg ip nsenter mount.glusterfs /usr/bin/time bc; do
  command -v "$c" > /dev/null || { echo "$c is missing: apt-get install -y glusterfs-server borgbackup iproute2 util-linux time bc" >&2; exit 2; }
done

NS=${NS:-cairn-gluster}
G=/tmp/$NS # a fixed place: a run after a crash finds what the crashed one left
ADDR=10.213.0.1
VOL=cairnbench
GL=(ip netns exec "$NS" gluster --mode=script --glusterd-sock="$G/run/glusterd.socket" --log-file="$G/log/cli.log")

# gluster_down: unmounts the volume, stops it, ends glusterd, the bricks and the self-heal daemon (every process in the
# namespace), removes the sockets they made outside $G (/var/run/gluster/*.socket), the namespace and $G; whatever of
# that exists (a crashed run's leftovers too)
gluster_down() {
  local pids socks p _
  if grep -q " $G/mnt " /proc/mounts; then umount "$G/mnt" 2> /dev/null || umount -l "$G/mnt" || true; fi
  if [ -e "/var/run/netns/$NS" ]; then
    socks="" # the bricks' and daemons' sockets (-S), before stopping the volume ends the bricks
    for p in $(ip netns pids "$NS"); do
      socks="$socks $(tr '\0' '\n' < "/proc/$p/cmdline" 2> /dev/null | grep -A1 -x -- -S | tail -n +2 || true)"
    done
    if [ -S "$G/run/glusterd.socket" ] && [ -n "$(ip netns pids "$NS")" ]; then
      timeout 60 "${GL[@]}" volume stop "$VOL" force > /dev/null 2>&1 || true
    fi
    pids=$(ip netns pids "$NS" | xargs)
    if [ -n "$pids" ]; then
      # shellcheck disable=SC2086
      kill $pids 2> /dev/null || true
      for _ in $(seq 50); do [ -z "$(ip netns pids "$NS")" ] && break; sleep 0.2; done
      pids=$(ip netns pids "$NS" | xargs)
      # shellcheck disable=SC2086
      if [ -n "$pids" ]; then kill -9 $pids 2> /dev/null || true; sleep 0.5; fi
    fi
    for p in $socks; do case $p in /var/run/gluster/*.socket | /run/gluster/*.socket) rm -f "$p" ;; esac; done
    ip netns del "$NS" || true
  fi
  rm -rf "$G"
}

# gluster_up: the namespace, glusterd in it, the 4+2 volume over six bricks, started and mounted at $G/mnt
gluster_up() {
  local i bricks=()
  mkdir -p "$G/lib" "$G/run" "$G/log" "$G/mnt"
  ip netns add "$NS"
  ip netns exec "$NS" ip link set lo up
  ip netns exec "$NS" ip addr add "$ADDR/32" dev lo
  # Debian's /etc/glusterfs/glusterd.vol, with this run's working, run and log directories and CLI socket
  cat > "$G/glusterd.vol" << EOF
volume management
    type mgmt/glusterd
    option working-directory $G/lib
    option run-directory $G/run
    option logging-directory $G/log
    option glusterd-sockfile $G/run/glusterd.socket
    option transport-type socket
    option transport.socket.bind-address $ADDR
    option transport.socket.listen-port 24007
    option transport.socket.keepalive-time 10
    option transport.socket.keepalive-interval 2
    option transport.socket.read-fail-log off
    option ping-timeout 0
    option event-threads 1
    option max-port 60999
end-volume
EOF
  ip netns exec "$NS" glusterd -f "$G/glusterd.vol" -p "$G/glusterd.pid" -l "$G/log/glusterd.log"
  for _ in $(seq 100); do "${GL[@]}" peer status > /dev/null 2>&1 && break; sleep 0.2; done
  for i in 1 2 3 4 5 6; do mkdir -p "$G/b$i"; bricks+=("$ADDR:$G/b$i"); done
  "${GL[@]}" volume create "$VOL" disperse 6 redundancy 2 transport tcp "${bricks[@]}" force > /dev/null
  "${GL[@]}" volume start "$VOL" > /dev/null
  for _ in $(seq 100); do
    [ "$("${GL[@]}" volume status "$VOL" 2> /dev/null | grep -c '^Brick .* Y ')" = 6 ] && break; sleep 0.2
  done
  nsenter --net="/var/run/netns/$NS" mount -t glusterfs -o "log-file=$G/log/mnt.log" "$ADDR:/$VOL" "$G/mnt"
  grep -q " $G/mnt fuse.glusterfs " /proc/mounts || { echo "the Gluster volume is not mounted at $G/mnt" >&2; exit 1; }
}

W=$(mktemp -d /tmp/gluster-bench.XXXX)
PIDS=()
CAIRN="$ROOT/client-cli/target/cairn"
# this user's agent: its socket in a runtime directory of this script's own
AGENT_ENV=(env CAIRN_AGENT=on XDG_RUNTIME_DIR="$W/xdg-run" XDG_CACHE_HOME="$W/xdg-cache-agent")
PROC_ENV=(env CAIRN_AGENT=off XDG_CACHE_HOME="$W/xdg-cache-proc")
cleanup() {
  set +e
  if [ -d "$W/xdg-run" ]; then
    "${AGENT_ENV[@]}" "$CAIRN" agent stop > /dev/null 2>&1
    if [ -n "${AGENT_SELF:-}" ]; then
      for _ in $(seq 50); do kill -0 "$AGENT_SELF" 2> /dev/null || break; sleep 0.2; done
      kill "$AGENT_SELF" 2> /dev/null
    fi
  fi
  kill "${PIDS[@]}" 2> /dev/null; wait 2> /dev/null
  if [ -n "${KEEP_LOGS:-}" ]; then
    mkdir -p "$KEEP_LOGS" && cp "$W"/*.err "$W"/*.out "$W/xdg-run/cairn/agent.sock.log" "$KEEP_LOGS"/ 2> /dev/null
    cp -r "$G/log" "$KEEP_LOGS/gluster" 2> /dev/null
  fi
  gluster_down
  rmdir /var/run/gluster/snaps 2> /dev/null
  rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

gluster_down # a crashed run's leftovers
gluster_up
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
grid_up 8GiB
export CAIRN_KEY_DIR=$W/keys
C=(--tracker "$URL" --token-file "$W/client")
mkdir -m 0700 "$W/xdg-run"
borg init -e none "$W/borg" > /dev/null 2>&1

# DROP_CACHES=0: the page cache is left alone before the restart reads (a machine others are measuring on); the reads
# then come from memory
drop_caches() {
  sync
  if [ "${DROP_CACHES:-1}" != 0 ]; then echo 3 > /proc/sys/vm/drop_caches || echo "could not drop the page cache" >&2; fi
}
head -c 67108864 /dev/urandom > "$W/warm.img"
for r in $(seq "${GRID_WARM:-2}"); do
  "${PROC_ENV[@]}" "$CAIRN" "${C[@]}" store "$W/warm.img" --app warmup --node n > /dev/null 2> "$W/warm.err" || { cat "$W/warm.err" >&2; exit 1; }
  "${PROC_ENV[@]}" "$CAIRN" "${C[@]}" fetch --app warmup --node n -o "$W/warm.out" > /dev/null 2> "$W/warm.err" || { cat "$W/warm.err" >&2; exit 1; }
  dd if="$W/warm.img" of="$G/mnt/warm$r" bs=4M conv=fsync status=none
  cat "$G/mnt/warm$r" > "$W/warm.out"
  rm -f "$G/mnt/warm$r" "$W/warm.out"
done

# agent_settled: waits (up to 2 min) until this user's agent has opened its socket and runs nothing but the status
# request asking (no command, no background store), and notes its pid
agent_settled() {
  local s end=$((SECONDS + 120))
  while [ "$SECONDS" -lt "$end" ]; do
    s=$("${AGENT_ENV[@]}" "$CAIRN" agent status --json 2> /dev/null || true)
    if [[ $s == *'"running":true'* && $s != *'"starting"'* ]] && grep -q '"commandsRunning":1[,}]' <<< "$s" \
      && grep -q '"background":0[,}]' <<< "$s"; then
      AGENT_SELF=$(echo "$s" | grep -o '"pid":[0-9]*' | head -1 | cut -d: -f2)
      return
    fi
    sleep 0.2
  done
  echo "this user's agent did not settle in 2 min: $s" >&2
}

ROWS=$W/rows.tsv
printf "system\top\timage\twall_s\n"
run() { # run SYSTEM OP IMAGE# COMMAND...: one measured command; its wall seconds as a row
  local sys=$1 op=$2 n=$3 e _
  shift 3
  sync
  /usr/bin/time -f "%e %U %S" -o "$W/t" "$@" > /dev/null 2> "$W/cmd.err" || { echo "$sys $op $n failed:" >&2; cat "$W/cmd.err" >&2; exit 1; }
  read -r e _ < "$W/t"
  printf "%s\t%s\t%s\t%s\n" "$sys" "$op" "$n" "$e" | tee -a "$ROWS"
  sleep "${SETTLE:-2}"
}
n=0
for img in "$@"; do
  n=$((n + 1))
  cat "$img" > /dev/null # a checkpoint just written is in the page cache
  run cairn store "$n" "${AGENT_ENV[@]}" "$CAIRN" "${C[@]}" store "$img" --app gb-agent --node n
  agent_settled # the first store started the agent: it warms up while the job computes, not during the next commands
  run cairn-process store "$n" "${PROC_ENV[@]}" "$CAIRN" "${C[@]}" store "$img" --app gb-proc --node n
  run gluster store "$n" sh -c "dd if='$img' of='$G/mnt/step$n' bs=4M conv=fsync status=none && ln -sfn 'step$n' '$G/mnt/latest'"
  run borg store "$n" borg create "$W/borg::i$n" "$img"
done
last=$#
for app in gb-agent gb-proc; do
  sys=cairn; [ "$app" = gb-proc ] && sys=cairn-process
  mkdir "$W/fresh-$app"
  drop_caches
  run "$sys" fetch "$last" env CAIRN_AGENT=off CAIRN_BASE_CACHE="$W/fresh-$app" XDG_CACHE_HOME="$W/fresh-$app" \
    "$CAIRN" "${C[@]}" fetch --app "$app" --node n -o "$W/out-$app"
done
drop_caches
run gluster fetch "$last" sh -c "cat '$G/mnt/latest' > '$W/out-gluster'"
drop_caches
run borg fetch "$last" sh -c "borg extract --stdout '$W/borg::i$last' > '$W/out-borg'"
for f in gb-agent gb-proc gluster borg; do cmp "${!last}" "$W/out-$f" > /dev/null || { echo "the fetch ($f) differs from the image" >&2; exit 1; }; done

# ratios: the other system's wall time / Cairn's, per op (succ: the median over images 2..N of each image's ratio)
echo
awk -F'\t' -v last="$last" '
  { t[$1 "|" $2 "|" $3] = $4 }
  function median(a, k,   i, j, x) { for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
  function r(o, c, op, i) { return t[c "|" op "|" i] > 0 ? t[o "|" op "|" i] / t[c "|" op "|" i] : 0 }
  END {
    printf "ratio (other / cairn)\tfirst store\tsuccessors (median)\tfetch\n"
    split("cairn cairn-process", cs, " "); split("gluster borg", os, " ")
    for (ci = 1; ci <= 2; ci++) for (oi = 1; oi <= 2; oi++) {
      c = cs[ci]; o = os[oi]; k = 0; delete a
      for (i = 2; i <= last; i++) a[++k] = r(o, c, "store", i)
      printf "%s x %s\t%.2f\t%s\t%.2f\n", c, o, r(o, c, "store", 1), k ? sprintf("%.2f", median(a, k)) : "-", r(o, c, "fetch", last)
    }
  }' "$ROWS"
