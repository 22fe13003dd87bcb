#!/usr/bin/env bash
# A/B of JVM flags for one-process commands (no agent), as a job script runs them: each command a new
# `client-cli/target/cairn` process with CAIRN_JAVA_OPTS=$A_OPTS or $B_OPTS (which come after the launcher's
# own flags and win), A and B alternating. OP=store (default): every IMAGE in turn, ROUNDS rounds, each side
# into its own app; OP=fetch: the last IMAGE stored once, then fetched ROUNDS x 3 times by each side.
# A_LAUNCHER / B_LAUNCHER: another checkout's built launcher (its client-cli/target/cairn, where it was built: a
# class-data-sharing archive applies only to the jar path it was made with, so a copied target runs without it)
# for that side, to compare builds; both default to this checkout's.
# Prints per command: side, what, wall s, CPU-s (user+sys), then each side's means.
#   ./mvnw -B -q -DskipTests package && A_OPTS=-XX:CompileThresholdScaling=1 it/tools/oneshot-ab.sh IMAGE...
#   git worktree add /tmp/old REV && (cd /tmp/old && ./mvnw -B -q -DskipTests package) && A_LAUNCHER=/tmp/old/client-cli/target/cairn it/tools/oneshot-ab.sh IMAGE...
set -euo pipefail
# each command in a process of its own, as measured here: no agent of the user's started or used
export CAIRN_AGENT=${CAIRN_AGENT:-off}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: [A_OPTS=..] [B_OPTS=..] [OP=store|fetch] [ROUNDS=2] $0 IMAGE..." >&2; exit 2; }
W=$(mktemp -d /tmp/oneshot-ab.XXXX)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
# shellcheck source=local-grid.sh
. "$ROOT/it/tools/local-grid.sh"
grid_up 16GiB
export CAIRN_KEY_DIR=$W/keys
C=("$ROOT/client-cli/target/cairn" --tracker "$URL" --token-file "$W/client")
CA=("${A_LAUNCHER:-$ROOT/client-cli/target/cairn}" --tracker "$URL" --token-file "$W/client")
CB=("${B_LAUNCHER:-$ROOT/client-cli/target/cairn}" --tracker "$URL" --token-file "$W/client")
n=0
for img in "$@"; do # the grid serves a few stores first, as a grid that has run for a while has
  [ "$n" -lt 3 ] || break
  n=$((n + 1)); "${C[@]}" store "$img" --app warm --node n > /dev/null 2> "$W/e" || { cat "$W/e" >&2; exit 1; }
done
run() { # run SIDE WHAT ARGS...
  local side=$1 what=$2 opts cmd
  shift 2
  if [ "$side" = A ]; then opts=${A_OPTS:-}; cmd=("${CA[@]}"); else opts=${B_OPTS:-}; cmd=("${CB[@]}"); fi
  CAIRN_JAVA_OPTS="$opts" /usr/bin/time -f "$side	$what	%e	%U	%S" -o "$W/t" "${cmd[@]}" "$@" > /dev/null 2> "$W/e" \
    || { cat "$W/e" >&2; exit 1; }
  awk -F'\t' '{printf "%s\t%s\t%s\t%.2f\n", $1, $2, $3, $4 + $5}' "$W/t" | tee -a "$W/all"
}
printf "side\twhat\twall_s\tcpu_s\n"
if [ "${OP:-store}" = fetch ]; then
  last=${*: -1}
  "${C[@]}" store "$last" --app fetched --node n > /dev/null 2> "$W/e" || { cat "$W/e" >&2; exit 1; }
  for _ in $(seq $((3 * ${ROUNDS:-2}))); do
    for side in A B; do rm -f "$W/out"; run "$side" fetch fetch --app fetched --node n -o "$W/out"; done
  done
else
  for r in $(seq "${ROUNDS:-2}"); do
    i=0
    for img in "$@"; do
      for side in A B; do run "$side" "image$i" store "$img" --app "$side$r" --node n; done
      i=$((i + 1))
    done
  done
fi
awk -F'\t' '{w[$1] += $3; c[$1] += $4; k[$1]++} END {for (s in w) printf "%s: mean %.2f s wall, %.2f CPU-s over %d commands\n", s, w[s] / k[s], c[s] / k[s], k[s]}' "$W/all" | sort
