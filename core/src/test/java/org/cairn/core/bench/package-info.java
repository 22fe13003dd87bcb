/** JMH benchmarks of the data-path stages; run with core/jmh.sh (not part of the unit tests). */
package org.cairn.core.bench;
