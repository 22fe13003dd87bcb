package org.cairn.tracker.auth;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Group commit of one enrollment token's uses: registrations that take a use while another round is being written
 * queue, and the next round writes all of them at once (one read of the token's record, one write of its count, in a
 * tracker group one log entry), instead of one write each behind the token store's lock. Each round reads the record
 * as it is then and grants at most the uses it has left, in arrival order, so a use is never granted twice and the
 * count never goes below zero; the queue's takers beyond it are refused. A round whose write fails grants nothing
 * (the count was not written) and every taker of it gets the failure. Each thread writes at most one round: its own.
 */
final class UseRounds {
  /** Writes one round: reads the record, takes up to {@code wanted} uses, writes the count; returns how many it took. */
  @FunctionalInterface
  interface Spender {
    int spend(int wanted) throws IOException;
  }

  private final Spender spender;
  private final List<Take> queued = new ArrayList<>();
  private boolean writing;

  UseRounds(Spender spender) {
    this.spender = spender;
  }

  /** One registration's take: true if a use was granted, false if none was left. */
  boolean take() throws IOException {
    Take mine = new Take();
    List<Take> round = null;
    boolean interrupted = false;
    synchronized (this) {
      queued.add(mine);
      while (!mine.done && writing) {
        interrupted |= await();
      }
      if (!mine.done) {
        writing = true;
        round = new ArrayList<>(queued);
        queued.clear();
      }
    }
    if (round != null) {
      write(round);
    }
    synchronized (this) {
      while (!mine.done) {
        interrupted |= await();
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return mine.result();
  }

  /** Takers waiting for the next round (tests). */
  synchronized int queued() {
    return queued.size();
  }

  private void write(List<Take> round) {
    int granted = 0;
    IOException failure = null;
    try {
      granted = spender.spend(round.size());
    } catch (IOException e) {
      failure = e;
    } catch (RuntimeException e) {
      failure = new IOException("taking " + round.size() + " use(s) of an enrollment token failed: " + e, e);
    }
    synchronized (this) {
      for (int i = 0; i < round.size(); i++) {
        round.get(i).finish(failure == null && i < granted, failure);
      }
      writing = false;
      notifyAll(); // the takers of this round, and the next round's writer
    }
  }

  /**
   * Waits for a round to end; true if interrupted. A take does not give up when interrupted (the caller restores the
   * flag at the end): once queued its use may be granted in a round, and a taker that left would leave that use spent
   * on no registration.
   */
  private boolean await() {
    try {
      wait();
      return false;
    } catch (InterruptedException e) {
      return true;
    }
  }

  /** One taker's place in a round. Guarded by the rounds' monitor. */
  private static final class Take {
    private boolean done;
    private boolean granted;
    private IOException failure;

    void finish(boolean granted, IOException failure) {
      this.done = true;
      this.granted = granted;
      this.failure = failure;
    }

    boolean result() throws IOException {
      if (failure != null) {
        throw new IOException(failure.getMessage(), failure);
      }
      return granted;
    }
  }
}
