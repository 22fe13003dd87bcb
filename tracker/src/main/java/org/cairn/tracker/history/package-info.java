/** The shared availability history: every host's state sampled into fixed time slots, kept for a retention period. */
package org.cairn.tracker.history;
