package org.cairn.sim.fleet;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** What the fleet counts while it runs. */
public final class Counters {
  final AtomicLong registered = new AtomicLong();
  final AtomicLong certified = new AtomicLong();
  final AtomicLong beatsSent = new AtomicLong();
  final AtomicLong beatsOk = new AtomicLong();
  final AtomicLong beatErrors = new AtomicLong();
  final AtomicLong busyBeats = new AtomicLong();
  final AtomicLong outageSkips = new AtomicLong();
  final AtomicLong reRegistered = new AtomicLong();
  final AtomicLong repairQueuedSeen = new AtomicLong();
  final AtomicLong enrollRetries = new AtomicLong();
  final AtomicReference<String> firstError = new AtomicReference<>();

  void error(String what) {
    beatErrors.incrementAndGet();
    firstError.compareAndSet(null, what);
  }

  public Snapshot snapshot() {
    return new Snapshot(registered.get(), certified.get(), beatsSent.get(), beatsOk.get(), beatErrors.get(), busyBeats.get(),
        outageSkips.get(), reRegistered.get(), repairQueuedSeen.get(), enrollRetries.get(), firstError.get());
  }

  /**
   * The counts as reported: donors registered (and certified for the data plane), heartbeats sent, answered 200 and
   * failed (any other status, or no answer), heartbeats that reported BUSY, beats skipped in a lab outage, donors that
   * registered again with their own credential after a 404, answers that named repair work queued, registrations sent
   * again after the connection failed.
   */
  public record Snapshot(long registered, long certified, long beatsSent, long beatsOk, long beatErrors, long busyBeats,
      long outageSkips, long reRegistered, long repairQueuedSeen, long enrollRetries, String firstError) {}
}
