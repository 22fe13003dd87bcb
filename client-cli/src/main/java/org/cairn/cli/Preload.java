package org.cairn.cli;

import java.util.List;
import java.util.Set;

/**
 * A one-command process's start, in parallel: while the main thread builds the command line's model
 * (picocli's reflection over the command's annotations) and reads the app's key, a thread of its own
 * initialises the classes the command reaches next whose static set-up is slow in a new JVM: Jackson's
 * mapper (the tracker's client), Netty's event loops (and with them the logging), Tink's registry
 * (the app key); then, for a command that codes chunks, the JDK's hashing and AES-GCM loops
 * ({@link Kernels}). Those classes' initialisation then waits for, or finds done, what this thread did: the
 * same work, on the second core (docs/benchmarks.md, "One-command starts").
 */
final class Preload {
  /** Commands that open the grid. */
  private static final Set<String> GRID = Set.of("store", "fetch", "verify", "versions", "wait", "prefetch", "ls", "rm",
      "status", "policy", "mount");
  /** Commands that hash, seal or open chunks: they also run {@link Kernels#warm}. */
  private static final Set<String> CODING = Set.of("store", "fetch", "verify", "prefetch");
  /** Initialised in this order (each on its own has nothing to wait for from the main thread). */
  static final List<String> CLASSES = List.of("org.cairn.core.api.TrackerHttp", "io.netty.channel.nio.NioEventLoopGroup",
      "org.cairn.core.crypto.AppKey", "io.netty.buffer.PooledByteBufAllocator",
      // its multiplication table, 13 ms interpreted, was made on the main thread when the store set up its code
      "org.cairn.core.erasure.GaloisField");

  private Preload() {}

  /** Starts the thread if {@code command} opens the grid; returns it (null otherwise). */
  static Thread start(String command) {
    if (command == null || !GRID.contains(command)) {
      return null;
    }
    boolean coding = CODING.contains(command);
    Thread t = new Thread(() -> {
      run();
      if (coding) {
        Kernels.warm();
      }
    }, "cairn-preload");
    t.setDaemon(true);
    t.start();
    return t;
  }

  static void run() {
    ClassLoader loader = Preload.class.getClassLoader();
    for (String name : CLASSES) {
      try {
        Class.forName(name, true, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        return; // the command meets the same error itself, where it is reported
      }
    }
  }
}
