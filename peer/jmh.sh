#!/usr/bin/env bash
# Runs the JMH benchmarks of the peer. Arguments go to JMH, e.g.:
#   peer/jmh.sh FragmentStoreBenchmark            # one class
#   peer/jmh.sh -f 1 -wi 2 -i 3 FragmentStore    # shorter
#   peer/jmh.sh -rf json -rff peer/target/jmh.json FragmentStoreBenchmark
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -pl core,peer -am -DskipTests test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/jmh-classpath.txt -Dmdep.includeScope=test
exec java -cp "peer/target/test-classes:peer/target/classes:core/target/classes:$(cat peer/target/jmh-classpath.txt)" \
  org.openjdk.jmh.Main "$@"
