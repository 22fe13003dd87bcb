package org.cairn.cli.startup;

/**
 * Ends a command's process without the JVM's wait for threads in native code. JDK 17's exit holds the
 * process for 0.3 s while any thread waits in a native call (its final safepoint polls every 10 ms, 30
 * times, for such threads to block), and the JDK {@code HttpClient}'s selector thread always waits in one,
 * {@code epoll_wait}: every one-command {@code cairn} that spoke to the tracker took 0.33 s longer to exit
 * than to answer (docs/benchmarks/journal.md). That thread leaves its loop, closing its selector, when interrupted,
 * so before exiting the threads named as one are interrupted and awaited briefly; any other is left to the
 * JVM's wait, as before. (The tracker's calls now go over {@code HttpURLConnection}, which has no such thread; the
 * JDK client remains for asynchronous posts, as a load generator's.)
 */
public final class QuietExit {
  /** How long a selector thread is awaited after its interrupt (it takes well under a millisecond). */
  private static final long JOIN_MILLIS = 100;

  private QuietExit() {}

  /** Interrupts the JDK HttpClient's selector threads, waits for them, and exits with {@code code}. */
  public static void exit(int code) {
    release(selectors());
    System.exit(code);
  }

  /** The JDK HttpClient's selector threads alive now. */
  static java.util.List<Thread> selectors() {
    ThreadGroup group = Thread.currentThread().getThreadGroup();
    while (group.getParent() != null) {
      group = group.getParent();
    }
    Thread[] threads = new Thread[group.activeCount() + 16];
    int n = group.enumerate(threads, true);
    java.util.List<Thread> found = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (isHttpSelector(threads[i].getName())) {
        found.add(threads[i]);
      }
    }
    return found;
  }

  /** Interrupts {@code selectors} and waits for each to end (at most {@link #JOIN_MILLIS} each). */
  static void release(java.util.List<Thread> selectors) {
    selectors.forEach(Thread::interrupt);
    for (Thread t : selectors) {
      try {
        t.join(JOIN_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** The JDK names them "HttpClient-&lt;n&gt;-SelectorManager". */
  static boolean isHttpSelector(String name) {
    return name.startsWith("HttpClient-") && name.endsWith("-SelectorManager");
  }
}
