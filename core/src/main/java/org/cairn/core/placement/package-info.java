/** Choosing the m+k storage hosts of a checkpoint: FALCON's objective and greedy (§3.2), and the baselines. */
package org.cairn.core.placement;
