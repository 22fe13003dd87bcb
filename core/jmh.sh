#!/usr/bin/env bash
# Runs the JMH benchmarks of core. Arguments go to JMH, e.g.:
#   core/jmh.sh ErasureBenchmark            # one class
#   core/jmh.sh -f 1 -wi 2 -i 3 Pipeline    # shorter
#   core/jmh.sh -rf json -rff core/target/jmh.json ErasureBenchmark
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -pl core -DskipTests test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/jmh-classpath.txt -Dmdep.includeScope=test
exec java -cp "core/target/test-classes:core/target/classes:$(cat core/target/jmh-classpath.txt)" \
  org.openjdk.jmh.Main "$@"
