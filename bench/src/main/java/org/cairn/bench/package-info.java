/** Throughput measurements behind {@code cairn benchmark}: one method per stage of the data path. */
package org.cairn.bench;
