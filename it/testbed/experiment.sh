#!/usr/bin/env bash
# One command per experiment of the seed papers on the emulated grid (see it/testbed/README.md and docs/benchmarks/journal.md):
#   it/testbed/experiment.sh NAME [--out DIR] [--work DIR] [--image-mb N]
# NAME: concurrency failures load retrieval stripe chunksize threads makespan. Writes
# docs/benchmarks/NAME.{csv,md,png}. Testbed experiments run as root (network namespaces); all need
# the jars (./mvnw -B -q -DskipTests package), and gcc + gdb for the gcore checkpoint images.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
JAR="$ROOT/it/target/cairn-experiments.jar"
[ -f "$JAR" ] || { echo "experiment.sh: $JAR is missing: build first (./mvnw -B -q -DskipTests package)" >&2; exit 1; }
cd "$ROOT"
exec java -Xmx512m -Djava.awt.headless=true -jar "$JAR" "$@" --root "$ROOT"
