#!/usr/bin/env bash
# A month of donor churn in simulated time against core's placement and the tracker's repair policy
# (docs/simulation.md, "Durability over a month"): prints the table and writes the plots into docs/img/ (or $PLOTS:
# give another directory for a run with other flags, so the page's plots stay the default month's).
#   ./mvnw -B -q -DskipTests package && it/tools/durability-sim.sh [durability-sim flags, e.g. --donors 2000 --json]
#   (SIM_JAVA_OPTS: JVM flags, default -Xmx3g)
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=sim/target/cairn-sim.jar
[ -f "$JAR" ] || { echo "durability-sim.sh: $JAR is missing; build it with ./mvnw -B -q -DskipTests package" >&2; exit 2; }
# shellcheck disable=SC2086
exec java ${SIM_JAVA_OPTS:--Xmx3g} -Djava.awt.headless=true -cp "$JAR" org.cairn.sim.durability.DurabilityMain --plots "${PLOTS:-docs/img}" "$@"
