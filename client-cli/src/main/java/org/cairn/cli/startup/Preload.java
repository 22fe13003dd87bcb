package org.cairn.cli.startup;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cairn.core.api.TrackerHttp;
import org.cairn.core.api.catalog.CatalogRecordBlob;
import org.cairn.core.api.catalog.CommitRequest;
import org.cairn.core.api.catalog.HeldChunks;
import org.cairn.core.api.catalog.LocatedVersion;
import org.cairn.core.api.catalog.PendingRequest;
import org.cairn.core.api.catalog.PlacementAnswer;
import org.cairn.core.api.catalog.PlacementQuery;
import org.cairn.core.api.catalog.RecordAttach;
import org.cairn.core.api.catalog.VersionRow;
import org.cairn.core.api.member.BandwidthReport;

/**
 * A one-command process's start, in parallel: while the main thread builds the command line's model
 * (picocli's reflection over the command's annotations) and reads the app's key, a thread of its own
 * initialises the classes the command reaches next whose static set-up is slow in a new JVM: Jackson's
 * mapper (the tracker's client), Netty's event loops (and with them the logging), Tink's registry
 * (the app key); then, for a command that codes chunks, the JDK's hashing and AES-GCM loops
 * ({@link Kernels}). A store coding against bases, and a fetch, first start the index of the host's cache of bases
 * ({@link org.cairn.client.Grid#indexBasesAhead}), which their first chunk would otherwise wait for. Those classes'
 * initialisation then waits for, or finds done, what this thread did: the
 * same work, on the second core (docs/benchmarks/journal.md, "One-command starts").
 */
public final class Preload {
  /** Commands that open the grid. */
  private static final Set<String> GRID = Set.of("store", "fetch", "verify", "versions", "wait", "prefetch", "ls", "rm",
      "status", "policy", "mount");
  /** Commands that hash, seal or open chunks: they also run {@link Kernels#warm}. */
  private static final Set<String> CODING = Set.of("store", "fetch", "verify", "prefetch");
  /** Initialised in this order (each on its own has nothing to wait for from the main thread). */
  public static final List<String> CLASSES = List.of("org.cairn.core.api.TrackerHttp", "io.netty.channel.nio.NioEventLoopGroup",
      "org.cairn.core.crypto.AppKey", "io.netty.buffer.PooledByteBufAllocator",
      // its multiplication table, 13 ms interpreted, was made on the main thread when the store set up its code
      "org.cairn.core.erasure.GaloisField");

  /**
   * The messages each command exchanges with the tracker, in the order it first does: their Jackson readers and
   * writers are built here before the command's calls need them (a store's first calls, on the main thread, and its
   * first naming call, on an I/O thread, built them: ~0.1 CPU-s of reflection).
   */
  public static final Map<String, List<Class<?>>> MESSAGES = Map.of(
      "store", List.of(PlacementQuery.class, PlacementAnswer.class, HeldChunks.class, PendingRequest.class, PendingRequest.Answer.class,
          LocatedVersion.class, CommitRequest.class, CommitRequest.Answer.class, BandwidthReport.class, CatalogRecordBlob.class,
          RecordAttach.class, RecordAttach.Answer.class),
      "fetch", List.of(LocatedVersion.class, PlacementQuery.class, PlacementAnswer.class),
      "verify", List.of(LocatedVersion.class),
      "prefetch", List.of(LocatedVersion.class),
      "versions", List.of(VersionRow.class));

  private Preload() {}

  /**
   * Starts the thread if {@code command} opens the grid; returns it (null otherwise). A store that codes against bases
   * and a fetch also start the index of the host's cache of bases at once ({@link Grid#indexBasesAhead}).
   */
  public static Thread start(String command, String[] args) {
    if (command == null || !GRID.contains(command)) {
      return null;
    }
    boolean bases = command.equals("fetch") || command.equals("store") && codesAgainstBases(args);
    boolean coding = CODING.contains(command);
    Thread t = new Thread(() -> {
      if (bases) {
        try {
          org.cairn.client.Grid.indexBasesAhead(); // starts the index's own thread, first
        } catch (RuntimeException e) {
          // the command meets the same error where it uses the cache, and reports it there
        }
      }
      run();
      TrackerHttp.prepare(MESSAGES.getOrDefault(command, List.of()));
      if (coding && tls(args)) {
        org.cairn.core.net.DataTls.prepare(); // its first connection to a donor would wait ~0.2 s for it
      }
      if (coding) {
        Kernels.warm();
      }
    }, "cairn-preload");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * Whether the grid the command names is a TLS one (an {@code https://} tracker in {@code --tracker} or
   * {@code CAIRN_TRACKER}): its donors are then reached over TLS too. A tracker named only in the config file is not
   * looked up here (the command then sets TLS up when it connects, as without this thread).
   */
  static boolean tls(String[] args) {
    String tracker = System.getenv("CAIRN_TRACKER");
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--tracker") && i + 1 < args.length) {
        tracker = args[i + 1];
      } else if (args[i].startsWith("--tracker=")) {
        tracker = args[i].substring("--tracker=".length());
      }
    }
    return tracker != null && tracker.strip().toLowerCase(java.util.Locale.ROOT).startsWith("https://");
  }

  /** Whether a store with these arguments codes chunks against bases: not with {@code --delta off}, nor a set's part. */
  public static boolean codesAgainstBases(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--delta=off") || a.equals("--delta") && i + 1 < args.length && args[i + 1].equals("off") || a.equals("--set")
          || a.startsWith("--set=")) {
        return false;
      }
    }
    return true;
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
