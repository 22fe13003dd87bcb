#!/usr/bin/env bash
# Regenerates client-cli/src/main/resources/cds-classes.txt: the classes one-command stores, a fetch, `versions` and
# `verify` (as a job script runs them, without an agent, on a local grid) load from the jar or the JDK's modules rather
# than from the launcher's class-data-sharing archive. The build's training run (CdsTraining) loads every class named
# there, so the archive holds them (docs/benchmarks/journal.md, "One-command starts"). Run after changes that bring in new classes:
#   ./mvnw -B -q -DskipTests package && it/tools/cds-classes.sh IMAGE1 IMAGE2 && ./mvnw -B -q -DskipTests package
set -euo pipefail
# each command in a process of its own, as measured here: no agent of the user's started or used
export CAIRN_AGENT=${CAIRN_AGENT:-off}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -eq 2 ] || { echo "usage: $0 IMAGE1 IMAGE2 (two successive checkpoint images, e.g. DMTCP's)" >&2; exit 2; }
W=$(mktemp -d /tmp/cds-classes.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
grid_up 16GiB
export CAIRN_KEY_DIR=$W/keys
n=0
run() {
  n=$((n + 1))
  CAIRN_JAVA_OPTS="-Xlog:class+load=info:file=$W/load$n.txt" "$ROOT/client-cli/target/cairn" --tracker "$URL" \
    --token-file "$W/client" "$@" > /dev/null 2> "$W/err" || { cat "$W/err" >&2; exit 1; }
}
run store "$1" --app a --node n
run store "$2" --app a --node n
run versions --app a --node n
run fetch --app a --node n -o "$W/out"
run verify
# "name source: file:..." or "source: jrt:/..." (not "shared objects file"); hidden classes have a "/0x" in their name.
# Added to the list (the archive these runs used already holds what it names).
LIST=$ROOT/client-cli/src/main/resources/cds-classes.txt
cat "$W"/load*.txt | grep -E 'source: (file|jrt):' | awk '{print $2}' | grep -v '/0x' | cat - "$LIST" | sort -u > "$W/list"
echo "$(($(wc -l < "$W/list") - $(wc -l < "$LIST"))) classes added"
cp "$W/list" "$LIST"
