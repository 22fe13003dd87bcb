/** The optimal checkpoint interval from a checkpoint's cost and the host's mean time to interruption (Young, Daly). */
package org.cairn.core.interval;
