package org.cairn.tracker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests move by hand, so a week of heartbeats and history runs in milliseconds. */
public final class MutableClock extends Clock {
  private long millis;

  public MutableClock(long millis) {
    this.millis = millis;
  }

  public synchronized void advance(Duration d) {
    millis += d.toMillis();
  }

  @Override
  public synchronized long millis() {
    return millis;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
