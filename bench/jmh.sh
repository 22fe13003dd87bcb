#!/usr/bin/env bash
# Runs the JMH benchmarks of core's data path (bench/src/test/java/org/cairn/bench/jmh). Arguments go to JMH, e.g.:
#   bench/jmh.sh ErasureBenchmark            # one class
#   bench/jmh.sh -f 1 -wi 2 -i 3 Pipeline    # shorter
#   bench/jmh.sh -rf json -rff bench/target/jmh.json ErasureBenchmark
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -pl bench -am -DskipTests test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/jmh-classpath.txt -Dmdep.includeScope=test
exec java -cp "bench/target/test-classes:bench/target/classes:$(cat bench/target/jmh-classpath.txt)" \
  org.openjdk.jmh.Main "$@"
