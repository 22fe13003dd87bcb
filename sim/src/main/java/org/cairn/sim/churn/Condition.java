package org.cairn.sim.churn;

/** What a simulated donor's host is doing at a moment of simulated time. */
public enum Condition {
  /** Up, its owner away: the donor heartbeats RUNNING. */
  IDLE,
  /** Up, its owner at the keyboard: the donor's rules make it BUSY (FALCON's S2), and it heartbeats so. */
  OWNER_ACTIVE,
  /** Its lab is down (power, network): the donor is silent. */
  OUTAGE
}
