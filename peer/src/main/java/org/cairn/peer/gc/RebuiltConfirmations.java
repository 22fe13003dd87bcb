package org.cairn.peer.gc;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.cairn.core.protocol.FragmentKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the tracker soon that rebuilt pieces landed here. The tracker counts a rebuilt piece only
 * once its target's own inventory lists it (it does not take the repair executor's word), and the
 * regular inventory ({@link InventoryGc}) runs only every GC interval: until then fetches do not see
 * the piece and its chunk shows degraded. So the keys of pieces a repair stored durably here are
 * collected and listed to the tracker's inventory call within about {@code delay}, batched: at most
 * one call per delay, on the peer's scheduler (never the data plane's event loops).
 *
 * <p>The answer (which keys are garbage) is only logged: the GC pass stays the only deleter. Keys
 * wait in a bounded set; beyond it they are dropped, as are keys of a failed call once the set is
 * full (the next regular inventory lists them anyway). A failed call's keys go with the next batch.
 */
public final class RebuiltConfirmations {
  private static final Logger LOG = LoggerFactory.getLogger(RebuiltConfirmations.class);
  /** Keys waiting at most; also the most one call lists. */
  public static final int MAX_PENDING = 10_000;

  /** The tracker's inventory call for this peer: the keys listed, the garbage among them answered. */
  @FunctionalInterface
  public interface Inventory {
    List<byte[]> garbage(List<byte[]> keys) throws IOException;
  }

  private final Inventory tracker;
  private final ScheduledExecutorService scheduler;
  private final Duration delay;
  private final BooleanSupplier ready;
  private final int maxPending;
  private final Set<FragmentKey> pending = new LinkedHashSet<>();
  private boolean scheduled;
  private long dropped;

  /**
   * @param tracker the inventory call ({@code keys -> tracker.garbage(self, keys)})
   * @param scheduler where the calls run (the peer's scheduler)
   * @param delay how long keys gather before a call; also the least time between two calls
   * @param ready whether the tracker may be called now (the peer has registered)
   */
  public RebuiltConfirmations(Inventory tracker, ScheduledExecutorService scheduler, Duration delay, BooleanSupplier ready) {
    this(tracker, scheduler, delay, ready, MAX_PENDING);
  }

  RebuiltConfirmations(Inventory tracker, ScheduledExecutorService scheduler, Duration delay, BooleanSupplier ready, int maxPending) {
    this.tracker = tracker;
    this.scheduler = scheduler;
    this.delay = delay;
    this.ready = ready;
    this.maxPending = maxPending;
  }

  /** Rebuilt pieces stored durably here. Cheap and non-blocking: callable from an event loop. */
  public void stored(Collection<FragmentKey> keys) {
    if (keys.isEmpty()) {
      return;
    }
    synchronized (this) {
      for (FragmentKey k : keys) {
        if (pending.size() < maxPending) {
          pending.add(k);
        } else if (!pending.contains(k)) {
          dropped++;
        }
      }
      if (scheduled) {
        return;
      }
      scheduled = true;
    }
    try {
      scheduler.schedule(this::send, delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      synchronized (this) {
        scheduled = false; // shutting down: the next start's inventory lists them
      }
    }
  }

  /** Keys waiting for the next call (tests). */
  synchronized int pending() {
    return pending.size();
  }

  /** One call with the keys gathered so far; runs on the scheduler. */
  private void send() {
    List<FragmentKey> batch;
    long lost;
    synchronized (this) {
      scheduled = false;
      if (!ready.getAsBoolean()) {
        return; // not registered: kept for the next batch, or listed by the regular inventory
      }
      batch = new ArrayList<>(pending);
      pending.clear();
      lost = dropped;
      dropped = 0;
    }
    if (lost > 0) {
      LOG.debug("{} rebuilt pieces not confirmed early (too many waiting); the regular inventory lists them", lost);
    }
    if (batch.isEmpty()) {
      return;
    }
    List<byte[]> keys = new ArrayList<>(batch.size());
    for (FragmentKey k : batch) {
      keys.add(k.toBytes());
    }
    try {
      List<byte[]> garbage = tracker.garbage(keys);
      LOG.debug("listed {} rebuilt pieces to the tracker ({} of them garbage, left to the GC pass)", keys.size(), garbage.size());
    } catch (IOException | RuntimeException e) {
      LOG.info("could not list {} rebuilt pieces to the tracker ({}); they go with the next batch or the regular inventory",
          keys.size(), e.getMessage());
      requeue(batch);
    }
  }

  /** Puts a failed call's keys back, while there is room, without scheduling a call for them alone. */
  private synchronized void requeue(List<FragmentKey> batch) {
    Iterator<FragmentKey> it = batch.iterator();
    while (it.hasNext() && pending.size() < maxPending) {
      pending.add(it.next());
    }
  }
}
