/** Durability: the repair planner, its queue and grace period, and why repair is stalled when it is. */
package org.cairn.tracker.repair;
