#!/usr/bin/env bash
# #19's bounded-memory check: a 20 GiB image (sparse, 200 MB random in the middle) stored and fetched
# through an agent started with CAIRN_JAVA_OPTS=-Xmx256m on a local grid with 8 GiB quotas.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd); W=$(mktemp -d /tmp/big20.XXXX); PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
. "$ROOT/it/tools/local-grid.sh"
grid_up 8GiB
export CAIRN_JAVA_OPTS=-Xmx256m
agent_up
unset CAIRN_JAVA_OPTS
export CAIRN_AGENT_SOCKET=$W/agent.sock
truncate -s 20G "$W/big.img"
dd if=/dev/urandom of="$W/big.img" bs=1M count=200 seek=10240 conv=notrunc status=none
C="$ROOT/client-cli/target/cairn"
echo "agent RSS before: $(grep VmHWM /proc/$AGENT/status)"
/usr/bin/time -f "store wall %e s" "$C" store "$W/big.img" --app big --node n0 --json
echo "agent peak RSS after store: $(grep VmHWM /proc/$AGENT/status)"
/usr/bin/time -f "fetch wall %e s" "$C" fetch --app big --node n0 -o "$W/back.img" --json
echo "agent peak RSS after fetch: $(grep VmHWM /proc/$AGENT/status)"
cmp "$W/big.img" "$W/back.img" && echo "fetched byte-identical"
