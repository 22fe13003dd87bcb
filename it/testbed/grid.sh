#!/usr/bin/env bash
# The emulated desktop grid (issue #7): a tracker, N donors and M clients, each in its own network
# namespace, joined by veth pairs to a bridge that lives in a hub namespace (nothing is changed in
# the machine's own namespace). Per-host link rate, latency and loss are set with tc (tbf + netem) on
# both directions of each host's link. Runs as root; see it/testbed/README.md.
#
#   grid.sh up --donors N [--clients M] [--slow-donor RATE] [--rate RATE] [--delay D] [--loss P] [--dir DIR]
#   grid.sh exec HOST CMD...      run a command in a host's namespace (tracker, d1..dN, c1..cM)
#   grid.sh cairn HOST ARGS...    run the cairn CLI in a host's namespace against the testbed's tracker
#   grid.sh kill dI | start dI    SIGKILL / restart a donor (the eviction driver's verbs)
#   grid.sh status                hosts, addresses, links and processes
#   grid.sh down [--dir DIR]      stop everything and delete the namespaces (also after a failed up)
set -Eeuo pipefail

PREFIX=cairntb
HUB=$PREFIX-hub
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DIR=${CAIRN_TESTBED_DIR:-/tmp/cairn-testbed}
SUBNET=10.77.0
JAVA=${JAVA:-java}

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
  ip link add "v-$host" netns "$ns" type veth peer name "h-$host" netns "$HUB"
  ip -n "$ns" link set "v-$host" name eth0
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
    fi
  done
  if [ "$NETEM" = 1 ]; then echo "$host $a $rate $delay $loss" >> "$DIR/hosts"; else echo "$host $a $rate n/a n/a" >> "$DIR/hosts"; fi
}

start_tracker() {
  local a; a=$(addr_of tracker)
  ip netns exec $PREFIX-tracker "$JAVA" -Xmx512m -jar "$ROOT/tracker/target/cairn-tracker.jar" --data "$DIR/tracker" \
    --listen "$a:7600" --token-file "$DIR/grid.token" --heartbeat-interval "${HEARTBEAT:-1s}" --history-slot 1s \
    --repair-grace "${REPAIR_GRACE:-10s}" --status-page public >> "$DIR/tracker.log" 2>&1 &
  echo $! > "$DIR/tracker.pid"
}

start_donor() {
  local d=$1 a; a=$(addr_of "$d")
  ip netns exec "$PREFIX-$d" "$JAVA" -Xmx256m -jar "$ROOT/peer/target/cairn-peer.jar" --tracker "http://$(addr_of tracker):7600" \
    --data "$DIR/$d" --id "$d" --listen "$a:7700" --quota "${QUOTA:-20GiB}" --min-free 0 --token-file "$DIR/grid.token" \
    --heartbeat-interval "${HEARTBEAT:-1s}" --gc-interval 30s --gc-grace 1m >> "$DIR/$d.log" 2>&1 &
  echo $! > "$DIR/$d.pid"
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
  local donors=0 clients=1 slow="" rate=100mbit delay=1ms loss=0%
  while [ $# -gt 0 ]; do
    case "$1" in
      --donors) donors=$2; shift 2 ;;
      --clients) clients=$2; shift 2 ;;
      --slow-donor) slow=$2; shift 2 ;;
      --rate) rate=$2; shift 2 ;;
      --delay) delay=$2; shift 2 ;;
      --loss) loss=$2; shift 2 ;;
      --dir) DIR=$2; shift 2 ;;
      *) die "unknown option '$1' for up" ;;
    esac
  done
  [ "$donors" -ge 1 ] 2>/dev/null || die "--donors N (N >= 1) is required"
  need_root
  for jar in tracker/target/cairn-tracker.jar peer/target/cairn-peer.jar client-cli/target/cairn.jar; do
    [ -f "$ROOT/$jar" ] || die "$jar is missing: build first (./mvnw -B -q -DskipTests package)"
  done
  if ip netns list | grep -q "^$PREFIX-"; then die "a testbed is already up (grid.sh down first)"; fi
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
  if ip netns exec "$HUB" tc qdisc add dev probe0 root netem delay 1ms 2>/dev/null; then NETEM=1; else
    NETEM=0
    echo "grid.sh: this kernel has no netem qdisc: link rates are emulated (tbf), delay and loss are not" >&2
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
  for pid in "$DIR"/*.pid; do
    [ -f "$pid" ] && kill -9 "$(cat "$pid")" 2>/dev/null || true
  done
  # anything still running inside the testbed's namespaces
  for ns in $(ip netns list | awk '{print $1}' | grep "^$PREFIX-" || true); do
    for p in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done
  done
  for ns in $(ip netns list | awk '{print $1}' | grep "^$PREFIX-" || true); do
    ip netns delete "$ns"
  done
  rm -f "$DIR"/*.pid
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
  exec ip netns exec "$PREFIX-$host" "$JAVA" -Xmx512m -jar "$ROOT/client-cli/target/cairn.jar" \
    --tracker "http://$(addr_of tracker):7600" --token-file "$DIR/grid.token" "$@"
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
  status) shift; cmd_status ;;
  -h|--help|help|"") sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' ;;
  *) die "unknown verb '$1' (up, down, exec, cairn, kill, start, status)" ;;
esac
