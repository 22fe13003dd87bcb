#!/usr/bin/env bash
# Runs the JMH benchmarks of the tracker. Arguments go to JMH, e.g.:
#   tracker/jmh.sh ErasureBenchmark            # one class
#   tracker/jmh.sh -f 1 -wi 2 -i 3 Pipeline    # shorter
#   tracker/jmh.sh -rf json -rff core/target/jmh.json ErasureBenchmark
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -pl core,tracker -am -DskipTests test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/jmh-classpath.txt -Dmdep.includeScope=test
exec java -cp "tracker/target/test-classes:tracker/target/classes:core/target/classes:$(cat tracker/target/jmh-classpath.txt)" \
  org.openjdk.jmh.Main "$@"
