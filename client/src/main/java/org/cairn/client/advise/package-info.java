/**
 * When a job should checkpoint: its host's mean time to interruption from the tracker's availability history,
 * what a checkpoint costs it from its recent pauses on this host, and the interval between them (Young, Daly).
 */
package org.cairn.client.advise;
