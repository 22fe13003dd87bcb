/** Soft-state membership (stdchk): peers and compute hosts known by heartbeats, DOWN when they stop. */
package org.cairn.tracker.membership;
