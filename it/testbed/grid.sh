#!/usr/bin/env bash
# The emulated desktop grid: a tracker, N donors and M clients, each in its own network
# namespace, joined by veth pairs to a bridge that lives in a hub namespace (nothing is changed in
# the machine's own namespace). Per-host link rate, latency and loss are set with tc (tbf + netem) on
# both directions of each host's link. Where the kernel lacks netem, loss is a random classic-BPF
# classifier, and an explicit --delay makes each link a tap pair joined by a user-space delay line
# (delayline.py). Runs as root; see it/testbed/README.md. CAIRN_TESTBED_PREFIX (default cairntb)
# names the namespaces and cgroups, so two testbeds can be up at once with different prefixes and dirs.
#
#   grid.sh up --donors N [--clients M] [--slow-donor RATE] [--rate RATE] [--delay D] [--loss P] [--dir DIR]
#              [--disks SIZE [--disk-rate BYTES_PER_SEC] | --ram-disks SIZE]
#   grid.sh exec HOST CMD...      run a command in a host's namespace (tracker, d1..dN, c1..cM)
#   grid.sh cairn HOST ARGS...    run the cairn CLI in a host's namespace against the testbed's tracker
#   grid.sh kill dI | start dI    SIGKILL / restart a donor (the eviction driver's verbs)
#   grid.sh evict --rate R [--down D] [--for D] [--seed S] | evict --trace FILE
#                                 eviction driver: kill a random donor R times per hour (exponential
#                                 gaps), restart it D later; or replay "SECONDS DONOR DOWN_SECONDS" lines
#   grid.sh load dI PCT [--writers N] [--block SIZE]
#                                 background disk I/O on dI's own disk for PCT % of the time (0 stops it;
#                                 needs up --disks SIZE): N direct writers of SIZE blocks (default 2, 1M)
#   grid.sh shape HOST RATE       change a host's link rate (both directions) while running
#   grid.sh disk-rate dI BYTES_PER_SEC  change a donor's disk rate (needs up --disks; 0 lifts the limit)
#   grid.sh status                hosts, addresses, links and processes
#   grid.sh down [--dir DIR]      stop everything and delete the namespaces (also after a failed up)
set -Eeuo pipefail

PREFIX=${CAIRN_TESTBED_PREFIX:-cairntb}
HUB=$PREFIX-hub
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DIR=${CAIRN_TESTBED_DIR:-/tmp/cairn-testbed}
SUBNET=10.77.0
JAVA=${JAVA:-java}
# JVM flags of the tracker and donors (as `cairn grid up`'s): serial GC and C1 only, lighter daemons
read -r -a DAEMON_JVM <<< "${DAEMON_JAVA_OPTS:--XX:+UseSerialGC -XX:TieredStopAtLevel=1}"

die() { echo "grid.sh: $*" >&2; exit 1; }
need_root() {
  [ "$(id -u)" = 0 ] || die "needs root (network namespaces, veth, tc); run it as root or skip the testbed"
  command -v ip >/dev/null || die "needs iproute2 (ip, tc): apt-get install -y iproute2"
}

addr_of() { # host name -> address
  case "$1" in
    tracker) echo "$SUBNET.1" ;;
    d*) echo "$SUBNET.$((10 + ${1#d}))" ;;
    c*) echo "$SUBNET.$((100 + ${1#c}))" ;;
    *) die "unknown host '$1' (tracker, dN, cN)" ;;
  esac
}

# link HOST RATE DELAY LOSS: namespace, veth to the hub's bridge, address, shaping both ways
link() {
  local host=$1 rate=$2 delay=$3 loss=$4 ns=$PREFIX-$1 a
  a=$(addr_of "$host")
  ip netns add "$ns"
  ip -n "$ns" link set lo up
  if [ "$DELAYLINE" = 1 ]; then
    # no netem: the link is two taps and a user-space delay line between them (delayline.py)
    ip -n "$ns" tuntap add dev eth0 mode tap vnet_hdr
    ip -n "$HUB" tuntap add dev "h-$host" mode tap vnet_hdr
  else
    ip link add "v-$host" netns "$ns" type veth peer name "h-$host" netns "$HUB"
    ip -n "$ns" link set "v-$host" name eth0
  fi
  ip -n "$ns" addr add "$a/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$HUB" link set "h-$host" master br0 up
  # host -> grid on the host's side, grid -> host on the hub's side: rate via tbf, delay/loss via netem
  for side in "$ns eth0" "$HUB h-$host"; do
    set -- $side
    if [ "$NETEM" = 1 ]; then
      ip netns exec "$1" tc qdisc add dev "$2" root handle 1: netem delay "$delay" loss "$loss"
      ip netns exec "$1" tc qdisc add dev "$2" parent 1: handle 2: tbf rate "$rate" burst 64kb latency 50ms
    else
      ip netns exec "$1" tc qdisc add dev "$2" root handle 1: tbf rate "$rate" burst 64kb latency 50ms
      if lossy "$loss"; then drop_randomly "$1" "$2" "$loss"; fi
    fi
  done
  if [ "$DELAYLINE" = 1 ]; then
    python3 "$ROOT/it/testbed/delayline.py" --a "$ns:eth0" --b "$HUB:h-$host" --delay-ms "$(to_ms "$delay")" >> "$DIR/delay-$host.log" 2>&1 &
    echo $! > "$DIR/delay-$host.pid"
    # a tap has carrier once a process holds it: wait for the delay line to attach, or say why it did not
    local i
    for ((i = 0; i < 50; i++)); do
      ip -n "$ns" link show eth0 | grep -q NO-CARRIER || break
      kill -0 "$(cat "$DIR/delay-$host.pid")" 2>/dev/null || break
      sleep 0.1
    done
    ip -n "$ns" link show eth0 | grep -q NO-CARRIER && die "the delay line of $host did not start: $(tail -1 "$DIR/delay-$host.log")"
  fi
  if [ "$NETEM" = 1 ] || [ "$DELAYLINE" = 1 ]; then echo "$host $a $rate $delay $loss" >> "$DIR/hosts"
  elif lossy "$loss"; then echo "$host $a $rate n/a $loss" >> "$DIR/hosts"
  else echo "$host $a $rate n/a 0%" >> "$DIR/hosts"; fi
}

# a delay ("5ms", "0.5ms", "200us", "1s") in milliseconds
to_ms() {
  case "$1" in
    *ms) awk -v v="${1%ms}" 'BEGIN { print v + 0 }' ;;
    *us) awk -v v="${1%us}" 'BEGIN { print v / 1000 }' ;;
    *s) awk -v v="${1%s}" 'BEGIN { print v * 1000 }' ;;
    *) die "delay '$1': give a unit, e.g. 5ms" ;;
  esac
}

# whether a loss figure ("0%", "0.5%", "2") is above zero
lossy() { awk -v p="${1%\%}" 'BEGIN { exit !(p + 0 > 0) }'; }

# Packet loss without netem: under the tbf, an htb that only classifies (rates far above the link's)
# sends a random fraction of packets to a class whose queue holds nothing (pfifo limit 0), so they
# are dropped. The classifier is classic BPF loaded with tc's "bpf bytecode": load the kernel's
# per-packet random number (ancillary load SKF_AD_RANDOM, offset -4096 + 56), compare it with
# P * 2^32, return the drop class 2:20 (0x20020 = 131104) below it and 0 (no match: the default class) above.
drop_randomly() {
  local ns=$1 dev=$2 p=${3%\%} t
  t=$(awk -v p="$p" 'BEGIN { printf "%d", p / 100 * 4294967296 }')
  # one packet per skb, so the loss is per packet on the wire (a GSO skb of 40 segments would go whole)
  ip -n "$ns" link set "$dev" gso_max_segs 1
  ip netns exec "$ns" tc qdisc add dev "$dev" parent 1:1 handle 2: htb default 10 r2q 100000
  ip netns exec "$ns" tc class add dev "$dev" parent 2: classid 2:10 htb rate 100gbit
  ip netns exec "$ns" tc class add dev "$dev" parent 2: classid 2:20 htb rate 100gbit
  ip netns exec "$ns" tc qdisc add dev "$dev" parent 2:20 handle 20: pfifo limit 0
  ip netns exec "$ns" tc filter add dev "$dev" parent 2: prio 1 bpf bytecode "4,32 0 0 4294963256,53 1 0 $t,6 0 0 131104,6 0 0 0"
}

start_tracker() {
  local a; a=$(addr_of tracker)
  # plain HTTP, explicitly: the testbed's bridge is private to this machine, and its scripts speak http://
  ip netns exec $PREFIX-tracker "$JAVA" -Xmx512m "${DAEMON_JVM[@]}" -jar "$ROOT/tracker/target/cairn-tracker.jar" --data "$DIR/tracker" \
    --listen "$a:7600" --token-file "$DIR/grid.token" --heartbeat-interval "${HEARTBEAT:-1s}" --history-slot 1s \
    --repair-grace "${REPAIR_GRACE:-10s}" --status-page public --insecure-plain-http >> "$DIR/tracker.log" 2>&1 &
  echo $! > "$DIR/tracker.pid"
}

# disk DONOR SIZE: the donor's data directory on its own loop device, so its disk load (the peer reads
# /proc/diskstats for the device under its data directory) is its own and can be driven by `load`
disk() {
  local d=$1 size=$2 dev
  mkdir -p "$DIR/disks" "$DIR/$d"
  truncate -s "$size" "$DIR/disks/$d.img"
  # direct I/O: the loop device's requests reach the real disk and take real time, so it shows busy
  dev=$(losetup -f --show --direct-io=on "$DIR/disks/$d.img") || die "losetup failed (no loop devices?); run up without --disks"
  echo "$dev" > "$DIR/disks/$d.dev"
  mkfs.ext4 -q -F "$dev" >/dev/null
  mount "$dev" "$DIR/$d"
}

# ramdisk DONOR SIZE: the donor's data directory on its own tmpfs. All donors of a testbed otherwise
# share this machine's one disk, whose fsync'd write rate (about 50-60 MB/s here) then bounds the
# whole grid; on a real grid every donor has a disk of its own. tmpfs makes each donor's disk faster
# than its link (fsync is free), so what is measured is the network and the CPU. No load (no diskstats).
ramdisk() {
  local d=$1 size=$2
  mkdir -p "$DIR/disks" "$DIR/$d"
  mount -t tmpfs -o size="$size" "$PREFIX-$d" "$DIR/$d" || die "mounting a tmpfs on $DIR/$d failed"
  echo "$size" > "$DIR/disks/$d.tmpfs"
}

# A donor's slow disk: the donor and its load generator share a blkio cgroup whose reads and writes to
# the real disk under the loop devices are throttled (cgroup v1 blk-throttle). Throttling the backing
# disk, not the loop device, keeps the loop device's requests in flight while they wait, so the donor's
# disk-busy measure (/proc/diskstats) sees a slow disk, as it would on a desktop.
BLKIO=/sys/fs/cgroup/blkio
cgroup_of() { echo "$BLKIO/$PREFIX-$1"; }

to_bytes() { # 10MB, 20MiB, 5000000
  local v=$1
  case "$v" in
    *MiB) echo $(( ${v%MiB} * 1048576 )) ;; *KiB) echo $(( ${v%KiB} * 1024 )) ;;
    *MB) echo $(( ${v%MB} * 1000000 )) ;; *KB|*kB) echo $(( ${v%?B} * 1000 )) ;;
    *[!0-9]*) die "disk rate '$v': use bytes per second, e.g. 10MB or 20MiB" ;;
    *) echo "$v" ;;
  esac
}

set_disk_rate() { # donor bytes-per-second (0: unlimited)
  local d=$1 bps; bps=$(to_bytes "$2")
  local cg; cg=$(cgroup_of "$d")
  [ -d "$cg" ] || die "$d has no disk cgroup: up --disks SIZE --disk-rate RATE"
  local mm; mm=$(cat "$DIR/disks/backing")
  echo "$mm $bps" > "$cg/blkio.throttle.write_bps_device"
  echo "$mm $bps" > "$cg/blkio.throttle.read_bps_device"
}

disk_cgroup() { # donor rate
  [ -d "$BLKIO" ] || die "--disk-rate needs the cgroup v1 blkio controller at $BLKIO"
  local mm; mm=$(findmnt -n -o MAJ:MIN --target "$DIR/disks" | head -1 | tr -d ' ')
  [ -n "$mm" ] && [ -e "/sys/dev/block/$mm" ] || die "--disk-rate: $DIR/disks is not on a block device (it is on $mm)"
  echo "$mm" > "$DIR/disks/backing"
  mkdir -p "$(cgroup_of "$1")"
  set_disk_rate "$1" "$2"
  echo "$2" > "$DIR/disks/$1.rate"
}

start_donor() {
  local d=$1 a; a=$(addr_of "$d")
  ip netns exec "$PREFIX-$d" "$JAVA" -Xmx256m "${DAEMON_JVM[@]}" -jar "$ROOT/peer/target/cairn-peer.jar" --tracker "http://$(addr_of tracker):7600" \
    --data "$DIR/$d" --id "$d" --listen "$a:7700" --quota "${QUOTA:-20GiB}" --min-free 0 --token-file "$DIR/grid.token" \
    --heartbeat-interval "${HEARTBEAT:-1s}" --gc-interval 30s --gc-grace 1m ${DONOR_ARGS:-} >> "$DIR/$d.log" 2>&1 &
  echo $! > "$DIR/$d.pid"
  # all the JVM's threads, and those it starts later, go to the donor's disk cgroup
  if [ -d "$(cgroup_of "$d")" ]; then echo $! > "$(cgroup_of "$d")/cgroup.procs"; fi
}

wait_http() { # url seconds
  local i
  for ((i = 0; i < $2 * 10; i++)); do
    if ip netns exec $PREFIX-tracker curl -sf -o /dev/null -H "Authorization: Bearer $(cat "$DIR/grid.token")" "$1"; then return 0; fi
    sleep 0.1
  done
  return 1
}

peers_up() {
  ip netns exec $PREFIX-tracker curl -sf -H "Authorization: Bearer $(cat "$DIR/grid.token")" \
    "http://$(addr_of tracker):7600/api/v1/peers" | grep -o '"state":"RUNNING"' | wc -l
}

cmd_up() {
  local donors=0 clients=1 slow="" rate=100mbit delay=1ms delayset=0 loss=0% disks="" diskrate="" ramdisks=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --donors) donors=$2; shift 2 ;;
      --clients) clients=$2; shift 2 ;;
      --slow-donor) slow=$2; shift 2 ;;
      --rate) rate=$2; shift 2 ;;
      --delay) delay=$2; delayset=1; shift 2 ;;
      --loss) loss=$2; shift 2 ;;
      --disks) disks=$2; shift 2 ;;
      --ram-disks) ramdisks=$2; shift 2 ;;
      --disk-rate) diskrate=$2; shift 2 ;;
      --dir) DIR=$2; shift 2 ;;
      *) die "unknown option '$1' for up" ;;
    esac
  done
  [ "$donors" -ge 1 ] 2>/dev/null || die "--donors N (N >= 1) is required"
  [ -z "$diskrate" ] || [ -n "$disks" ] || die "--disk-rate needs --disks SIZE (each donor on its own disk)"
  [ -z "$ramdisks" ] || [ -z "$disks" ] || die "--ram-disks and --disks exclude each other"
  [ -z "$diskrate" ] || to_bytes "$diskrate" >/dev/null
  need_root
  for jar in tracker/target/cairn-tracker.jar peer/target/cairn-peer.jar client-cli/target/cairn.jar; do
    [ -f "$ROOT/$jar" ] || die "$jar is missing: build first (./mvnw -B -q -DskipTests package)"
  done
  if ip netns list | grep -q "^$PREFIX-"; then
    die "a testbed is already up (grid.sh down first): namespaces $(ip netns list | awk '{print $1}' | grep "^$PREFIX-" | tr '\n' ' ')"
  fi
  UP_OK=0
  trap 'if [ "$UP_OK" != 1 ]; then echo "grid.sh: up failed; tearing down" >&2; cmd_down >/dev/null 2>&1 || true; fi' EXIT
  rm -rf "$DIR"; mkdir -p "$DIR"
  head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$DIR/grid.token"
  chmod 600 "$DIR/grid.token"
  : > "$DIR/hosts"
  ip netns add "$HUB"
  ip -n "$HUB" link add br0 type bridge
  ip -n "$HUB" link set br0 up
  # netem (delay, loss) is a kernel module some kernels lack; tbf (rate) is everywhere
  ip -n "$HUB" link add probe0 type veth peer name probe1
  DELAYLINE=0
  if ip netns exec "$HUB" tc qdisc add dev probe0 root netem delay 1ms 2>/dev/null; then NETEM=1; else
    NETEM=0
    if [ "$delayset" = 1 ]; then
      # an explicit --delay: user-space delay lines between tap pairs (the default 1 ms is not worth a process per link)
      command -v python3 >/dev/null || die "--delay without netem needs python3 for the delay lines (apt-get install -y python3)"
      to_ms "$delay" >/dev/null
      [ -c /dev/net/tun ] || die "--delay without netem needs /dev/net/tun (tap devices)"
      DELAYLINE=1
      echo "grid.sh: this kernel has no netem qdisc: rates with tbf, loss with a random classic-BPF classifier, delay $delay each way per link with user-space delay lines (delayline.py)" >&2
    else
      echo "grid.sh: this kernel has no netem qdisc: link rates are emulated (tbf) and loss (a random classic-BPF classifier that drops); delay only with an explicit --delay (user-space delay lines)" >&2
    fi
  fi
  ip -n "$HUB" link del probe0
  link tracker 1gbit "$delay" 0%
  for ((i = 1; i <= donors; i++)); do
    # the last donor is the "laptop on DSL" when --slow-donor is given
    if [ -n "$slow" ] && [ "$i" = "$donors" ]; then link "d$i" "$slow" "${SLOW_DELAY:-20ms}" "$loss"; else link "d$i" "$rate" "$delay" "$loss"; fi
  done
  for ((i = 1; i <= clients; i++)); do link "c$i" "$rate" "$delay" "$loss"; done
  start_tracker
  wait_http "http://$(addr_of tracker):7600/api/v1/health" 60 || die "the tracker did not start (see $DIR/tracker.log)"
  if [ -n "$disks" ]; then for ((i = 1; i <= donors; i++)); do disk "d$i" "$disks"; done; fi
  if [ -n "$ramdisks" ]; then for ((i = 1; i <= donors; i++)); do ramdisk "d$i" "$ramdisks"; done; fi
  if [ -n "$diskrate" ]; then for ((i = 1; i <= donors; i++)); do disk_cgroup "d$i" "$diskrate"; done; fi
  for ((i = 1; i <= donors; i++)); do start_donor "d$i"; done
  for ((i = 0; i < 600; i++)); do [ "$(peers_up)" -ge "$donors" ] && break; sleep 0.1; done
  [ "$(peers_up)" -ge "$donors" ] || die "only $(peers_up) of $donors donors registered (see $DIR/d*.log)"
  UP_OK=1
  echo "$donors" > "$DIR/donors"
  echo "testbed up: tracker http://$(addr_of tracker):7600 (status page public), $donors donors, $clients clients; token $DIR/grid.token"
  echo "  client commands: $0 cairn c1 store FILE --app A --node N"
}

cmd_down() {
  while [ $# -gt 0 ]; do
    case "$1" in
      --dir) DIR=$2; shift 2 ;;
      *) die "unknown option '$1' for down" ;;
    esac
  done
  need_root
  for pid in "$DIR"/*.pid "$DIR"/load-*.pid "$DIR"/evict.pid; do
    [ -f "$pid" ] && kill -9 "$(cat "$pid")" 2>/dev/null || true
  done
  # the eviction driver's pending returns (sleeping subshells of `grid.sh evict`) would restart donors later
  pkill -9 -f "testbed/grid.sh evict" 2>/dev/null || true
  # anything still running inside the testbed's namespaces
  for ns in $(ip netns list | awk '{print $1}' | grep "^$PREFIX-" || true); do
    for p in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done
  done
  # a namespace whose last process is still exiting may refuse deletion for a moment: retry, then say so
  local left=""
  for ns in $(ip netns list | awk '{print $1}' | grep "^$PREFIX-" || true); do
    for ((i = 0; i < 50; i++)); do ip netns delete "$ns" 2>/dev/null && break; sleep 0.1; done
    ip netns list | awk '{print $1}' | grep -qx "$ns" && left="$left $ns"
  done
  for t in "$DIR"/disks/*.tmpfs; do
    [ -f "$t" ] || continue
    umount -l "$DIR/$(basename "$t" .tmpfs)" 2>/dev/null || true
    rm -f "$t"
  done
  for devf in "$DIR"/disks/*.dev; do
    [ -f "$devf" ] || continue
    local dev; dev=$(cat "$devf")
    umount -l "$DIR/$(basename "$devf" .dev)" 2>/dev/null || true
    losetup -d "$dev" 2>/dev/null || true
    rm -f "$devf"
  done
  rm -f "$DIR"/*.pid "$DIR"/disks/*.img "$DIR"/disks/*.rate
  # the donors' disk cgroups, once their (killed) processes are gone
  for cg in "$BLKIO/$PREFIX"-*; do
    [ -d "$cg" ] || continue
    for ((i = 0; i < 50; i++)); do rmdir "$cg" 2>/dev/null && break; sleep 0.1; done
    [ -d "$cg" ] && echo "grid.sh: could not remove $cg (processes still in it?)" >&2
  done
  [ -z "$left" ] || die "could not delete the namespaces$left"
  echo "testbed down"
}

cmd_exec() {
  need_root
  local host=$1; shift
  addr_of "$host" >/dev/null
  exec ip netns exec "$PREFIX-$host" "$@"
}

cmd_cairn() {
  need_root
  local host=$1; shift
  # the testbed's app keys (encrypted stores) stay in its own directory, not in root's ~/.config
  CAIRN_KEY_DIR=${CAIRN_KEY_DIR:-$DIR/keys} exec ip netns exec "$PREFIX-$host" "$JAVA" -Xmx512m -jar "$ROOT/client-cli/target/cairn.jar" \
    --tracker "http://$(addr_of tracker):7600" --token-file "$DIR/grid.token" "$@"
}

# load dI PCT: a duty-cycle writer (direct I/O, so it reaches the device) busy PCT % of each 500 ms
cmd_load() {
  need_root
  local d=${1:-} pct=${2:-} writers=2 block=1M
  shift 2 || die "usage: load dI PCT [--writers N] [--block SIZE]"
  while [ $# -gt 0 ]; do
    case "$1" in
      --writers) writers=$2; shift 2 ;;
      --block) block=$2; shift 2 ;;
      *) die "load: unknown option $1 (usage: load dI PCT [--writers N] [--block SIZE])" ;;
    esac
  done
  [ "$writers" -ge 1 ] 2>/dev/null || die "--writers is a count >= 1"
  [[ "$block" =~ ^[0-9]+[KM]$ ]] || die "--block is a dd block size such as 1M or 512K"
  local f="$DIR/load-$d.pid"
  [ -f "$DIR/disks/$d.dev" ] || die "load needs the donor on its own disk: up --disks SIZE"
  [ -f "$f" ] && { kill -9 "$(cat "$f")" 2>/dev/null || true; rm -f "$f"; }
  [ "$pct" -gt 0 ] 2>/dev/null || { echo "load on $d stopped"; return 0; }
  [ "$pct" -le 100 ] || die "PCT is 0..100"
  ( set +e; trap 'exit 0' TERM
    # the load shares the donor's (slow) disk cgroup, when it has one
    if [ -d "$(cgroup_of "$d")" ]; then echo "$BASHPID" > "$(cgroup_of "$d")/cgroup.procs"; fi
    on=$(awk -v p="$pct" 'BEGIN { printf "%.3f", p / 200 }'); off=$(awk -v p="$pct" 'BEGIN { printf "%.3f", (100 - p) / 200 }')
    while :; do
      # N synchronous direct writers keep N blocks queued at the device while the load is on (at
      # least two, so it always has a request in flight); more writers, a deeper queue, a larger
      # share of a throttled disk against the peer's own writes
      for w in $(seq 1 "$writers"); do
        timeout "$on" dd if=/dev/zero of="$DIR/$d/.loadgen$w" bs="$block" count=256 oflag=direct conv=notrunc 2>/dev/null &
      done
      wait
      [ "$pct" -lt 100 ] && sleep "$off"
    done ) &
  echo $! > "$f"
  echo "load on $d: $pct % ($writers writers of $block)"
}

# evict: the eviction driver (FALCON Table 2: 1.3 evictions per host per hour, scaled by --rate)
cmd_evict() {
  need_root
  local rate="" down=30 dur=600 seed=1 trace="" n
  while [ $# -gt 0 ]; do
    case "$1" in
      --rate) rate=$2; shift 2 ;;
      --down) down=${2%s}; shift 2 ;;
      --for) dur=${2%s}; shift 2 ;;
      --seed) seed=$2; shift 2 ;;
      --trace) trace=$2; shift 2 ;;
      *) die "unknown option '$1' for evict" ;;
    esac
  done
  n=$(cat "$DIR/donors")
  echo $$ > "$DIR/evict.pid"
  local start; start=$(date +%s.%N)
  evict_one() { # donor down-seconds
    if [ -f "$DIR/$1.pid" ]; then
      kill -9 "$(cat "$DIR/$1.pid")" 2>/dev/null || true; rm -f "$DIR/$1.pid"
      echo "$(date +%s.%N) evict $1 for $2 s" | tee -a "$DIR/evictions.log"
      ( sleep "$2"; start_donor "$1"; echo "$(date +%s.%N) return $1" >> "$DIR/evictions.log" ) &
    fi
  }
  if [ -n "$trace" ]; then
    while read -r t d dd; do
      case "$t" in ''|'#'*) continue ;; esac
      local now; now=$(awk -v s="$start" -v n="$(date +%s.%N)" 'BEGIN { print n - s }')
      sleep "$(awk -v t="$t" -v n="$now" 'BEGIN { x = t - n; print (x > 0 ? x : 0) }')"
      evict_one "$d" "$dd"
    done < "$trace"
  else
    [ -n "$rate" ] || die "evict needs --rate EVICTIONS_PER_HOUR or --trace FILE"
    # exponential gaps for the whole grid: n donors x rate per hour; awk's rand seeded for repeatability
    awk -v seed="$seed" -v r="$rate" -v n="$n" -v dur="$dur" 'BEGIN { srand(seed); t = 0;
        while (1) { t += -log(1 - rand()) * 3600 / (r * n); if (t > dur) break; printf "%.2f d%d\n", t, 1 + int(rand() * n) } }' > "$DIR/evict.plan"
    while read -r t d; do
      local now; now=$(awk -v s="$start" -v n="$(date +%s.%N)" 'BEGIN { print n - s }')
      sleep "$(awk -v t="$t" -v n="$now" 'BEGIN { x = t - n; print (x > 0 ? x : 0) }')"
      evict_one "$d" "$down"
    done < "$DIR/evict.plan"
  fi
  wait
  rm -f "$DIR/evict.pid"
}

cmd_shape() {
  need_root
  local host=$1 rate=$2 ns=$PREFIX-$1
  addr_of "$host" >/dev/null
  for side in "$ns eth0" "$HUB h-$host"; do
    set -- $side
    if ip netns exec "$1" tc qdisc show dev "$2" | grep -q netem; then
      ip netns exec "$1" tc qdisc change dev "$2" parent 1: handle 2: tbf rate "$rate" burst 64kb latency 50ms
    else
      ip netns exec "$1" tc qdisc change dev "$2" root handle 1: tbf rate "$rate" burst 64kb latency 50ms
    fi
  done
  echo "$host: $rate"
}

cmd_status() {
  need_root
  [ -f "$DIR/hosts" ] || die "no testbed in $DIR"
  printf '%-8s %-12s %-10s %-6s %-6s %s\n' host address rate delay loss process
  while read -r h a r d l; do
    local state=-
    if [ -f "$DIR/$h.pid" ] && kill -0 "$(cat "$DIR/$h.pid")" 2>/dev/null; then state="pid $(cat "$DIR/$h.pid")"; fi
    printf '%-8s %-12s %-10s %-6s %-6s %s\n' "$h" "$a" "$r" "$d" "$l" "$state"
  done < "$DIR/hosts"
}

case "${1:-}" in
  up) shift; cmd_up "$@" ;;
  down) shift; cmd_down "$@" ;;
  exec) shift; cmd_exec "$@" ;;
  cairn) shift; cmd_cairn "$@" ;;
  kill) need_root; kill -9 "$(cat "$DIR/$2.pid")"; rm -f "$DIR/$2.pid"; echo "killed $2" ;;
  start) need_root; start_donor "$2"; echo "started $2" ;;
  evict) shift; cmd_evict "$@" ;;
  load) shift; cmd_load "$@" ;;
  shape) shift; cmd_shape "$@" ;;
  disk-rate) shift; need_root; [ $# = 2 ] || die "usage: disk-rate dI BYTES_PER_SEC"; set_disk_rate "$1" "$2"; echo "$2" > "$DIR/disks/$1.rate"; echo "disk of $1: $2 per second" ;;
  status) shift; cmd_status ;;
  -h|--help|help|"") sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' ;;
  *) die "unknown verb '$1' (up, down, exec, cairn, kill, start, evict, load, shape, status)" ;;
esac
