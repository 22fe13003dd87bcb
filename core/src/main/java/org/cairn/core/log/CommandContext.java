package org.cairn.core.log;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a thread holds for the command it works for (in an agent: where that command's log lines go), given to the
 * threads of the command's own pools however those threads come to be started. A pool starts a thread on whichever
 * thread hands it work, and a store's pools get work from the grid's event loops, whose threads belong to no command:
 * a thread started there inherits nothing, and what it logs (a host replaced, a retry) would reach the agent's log
 * only, never the client that ran the command. {@link #threads} takes the context when the pool is made, on the
 * command's thread, and puts it on every thread the pool starts.
 */
public final class CommandContext {
  /** One kind of per-thread context: what the calling thread holds, and how to hold a value on the calling thread. */
  public interface Carrier<T> {
    T current();

    void hold(T value);
  }

  private static final CopyOnWriteArrayList<Carrier<?>> CARRIERS = new CopyOnWriteArrayList<>();

  private CommandContext() {}

  /** Adds a kind of context every later {@link #threads} factory carries (once: registering it again does nothing). */
  public static void register(Carrier<?> carrier) {
    CARRIERS.addIfAbsent(carrier);
  }

  /**
   * Daemon threads named {@code name-1}, {@code name-2}, ... for a command's own pool, each holding the context of the
   * thread that calls this (call it on the command's thread, as it makes the pool).
   */
  public static ThreadFactory threads(String name) {
    List<Runnable> holds = new ArrayList<>();
    for (Carrier<?> c : CARRIERS) {
      holds.add(snapshot(c));
    }
    AtomicLong n = new AtomicLong();
    return r -> {
      Thread t = new Thread(() -> {
        holds.forEach(Runnable::run);
        r.run();
      }, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  private static <T> Runnable snapshot(Carrier<T> carrier) {
    T value = carrier.current();
    return () -> carrier.hold(value);
  }
}
