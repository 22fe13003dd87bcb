/** JMH benchmarks of core's data-path stages; run with bench/jmh.sh (not part of the unit tests). */
package org.cairn.bench.jmh;
