package org.cairn.client.tuning;

import java.util.Properties;
import org.cairn.core.protocol.FragmentBatch;
import org.cairn.core.protocol.Frame;

/**
 * How the client library's store and fetch paths are tuned: the knobs benchmarks turn, with their defaults here and
 * nowhere else. A {@link org.cairn.client.Grid} is opened with one and hands it to each store, fetch and the host's
 * cache of bases. {@link #fromSystemProperties} reads the {@code -Dcairn.*} names the benchmark scripts pass; a value
 * out of range or not a number fails with an {@link IllegalArgumentException} naming the property.
 *
 * @param inFlightBytes a store's pieces sent or queued but not yet acknowledged, at most ({@code cairn.store.inFlightBytes})
 * @param batchBytes the most bytes of pieces one PUT to a host carries ({@code cairn.store.batchBytes})
 * @param putsInFlight PUTs outstanding per host slot; pieces arriving meanwhile queue for the next ({@code cairn.store.putsInFlight})
 * @param lingerMillis how long a host slot's first queued piece waits for more to batch with ({@code cairn.store.lingerMillis})
 * @param lingerBytes queued bytes that end a slot's linger at once ({@code cairn.store.lingerBytes})
 * @param nameLingerMillis least time between two calls naming a store's new chunks to the tracker
 *     ({@code cairn.store.nameLingerMillis})
 * @param catalogRecords whether a store puts its version's catalog record on the grid after the commit
 *     ({@code cairn.store.catalogRecords}; off only to test a grid without records)
 * @param heldBaseBytes bytes of a resident agent's new base records held in memory until its store answers
 *     ({@code cairn.store.heldBaseBytes})
 * @param baseCache where the host's cache of bases is: a directory, {@code "off"} for none, or null for the standard
 *     place ($CAIRN_BASE_CACHE, else $XDG_CACHE_HOME/cairn/bases, else ~/.cache/cairn/bases) ({@code cairn.baseCache})
 * @param baseCacheBytes the host's cache of bases is trimmed to this many bytes ({@code cairn.baseCacheBytes})
 * @param fetchBasesAll a fetch reading pieces from all holders reads bases that way too, not hedged
 *     ({@code cairn.fetch.basesAll})
 */
public record ClientTuning(long inFlightBytes, int batchBytes, int putsInFlight, long lingerMillis, long lingerBytes,
    long nameLingerMillis, boolean catalogRecords, long heldBaseBytes, String baseCache, long baseCacheBytes, boolean fetchBasesAll) {

  /** The largest batch whose PUT frame (a count, then each piece with its length) stays within a frame's payload. */
  public static final int MAX_BATCH_BYTES = Frame.MAX_PAYLOAD - 2 - 4 * FragmentBatch.MAX_FRAGMENTS;
  /** The longest a piece or a chunk's name may linger: a store ends up to a linger later. */
  public static final long MAX_LINGER_MILLIS = 60_000;

  public ClientTuning {
    atLeast("cairn.store.inFlightBytes", inFlightBytes, 1, Long.MAX_VALUE);
    atLeast("cairn.store.batchBytes", batchBytes, 1, MAX_BATCH_BYTES);
    atLeast("cairn.store.putsInFlight", putsInFlight, 1, 1024);
    atLeast("cairn.store.lingerMillis", lingerMillis, 0, MAX_LINGER_MILLIS);
    atLeast("cairn.store.lingerBytes", lingerBytes, 0, Long.MAX_VALUE);
    atLeast("cairn.store.nameLingerMillis", nameLingerMillis, 0, MAX_LINGER_MILLIS);
    atLeast("cairn.store.heldBaseBytes", heldBaseBytes, 0, Long.MAX_VALUE);
    atLeast("cairn.baseCacheBytes", baseCacheBytes, 0, Long.MAX_VALUE);
    baseCache = baseCache == null || baseCache.isBlank() ? null : baseCache;
  }

  /** The defaults: what a client does when nobody tunes it. */
  public static ClientTuning defaults() {
    return new ClientTuning(48L << 20, 4 << 20, 2, 20, 1 << 20, 20, true, defaultHeldBaseBytes(), null, 4L << 30, false);
  }

  /** The defaults with any {@code -Dcairn.store.*}, {@code -Dcairn.baseCache*} or {@code -Dcairn.fetch.basesAll} of this JVM. */
  public static ClientTuning fromSystemProperties() {
    return from(System.getProperties());
  }

  /** The defaults with the tuning properties {@code p} sets (the names {@link #fromSystemProperties} reads). */
  public static ClientTuning from(Properties p) {
    ClientTuning d = defaults();
    return new ClientTuning(number(p, "cairn.store.inFlightBytes", d.inFlightBytes),
        whole(p, "cairn.store.batchBytes", d.batchBytes), whole(p, "cairn.store.putsInFlight", d.putsInFlight),
        number(p, "cairn.store.lingerMillis", d.lingerMillis), number(p, "cairn.store.lingerBytes", d.lingerBytes),
        number(p, "cairn.store.nameLingerMillis", d.nameLingerMillis), flag(p, "cairn.store.catalogRecords", d.catalogRecords),
        number(p, "cairn.store.heldBaseBytes", d.heldBaseBytes), p.getProperty("cairn.baseCache", d.baseCache),
        number(p, "cairn.baseCacheBytes", d.baseCacheBytes), flag(p, "cairn.fetch.basesAll", d.fetchBasesAll));
  }

  /** These settings with the host's cache of bases at {@code where} (a directory, "off", or null: the standard place). */
  public ClientTuning withBaseCache(String where) {
    return new ClientTuning(inFlightBytes, batchBytes, putsInFlight, lingerMillis, lingerBytes, nameLingerMillis, catalogRecords,
        heldBaseBytes, where, baseCacheBytes, fetchBasesAll);
  }

  /** These settings with {@code millis} of linger per host slot and {@code bytes} ending it ({@link #lingerMillis}). */
  public ClientTuning withLinger(long millis, long bytes) {
    return new ClientTuning(inFlightBytes, batchBytes, putsInFlight, millis, bytes, nameLingerMillis, catalogRecords, heldBaseBytes,
        baseCache, baseCacheBytes, fetchBasesAll);
  }

  /** 64 MiB, or an eighth of the heap when that is less. */
  private static long defaultHeldBaseBytes() {
    return Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 8);
  }

  private static void atLeast(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(name + " must be " + (max == Long.MAX_VALUE ? "at least " + min : min + ".." + max)
          + ", was " + value);
    }
  }

  /** A number as {@link Long#getLong} reads it (decimal, 0x hex or 0 octal); unset or blank: {@code otherwise}. */
  private static long number(Properties p, String name, long otherwise) {
    String v = p.getProperty(name);
    if (v == null || v.isBlank()) {
      return otherwise;
    }
    try {
      return Long.decode(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a whole number, was \"" + v + "\"");
    }
  }

  /** A number that fits an int ({@link #number}). */
  private static int whole(Properties p, String name, int otherwise) {
    long n = number(p, name, otherwise);
    if (n != (int) n) {
      throw new IllegalArgumentException(name + " must be at most " + Integer.MAX_VALUE + ", was " + n);
    }
    return (int) n;
  }

  /** "true" or "false" in any case; unset or blank: {@code otherwise}. */
  private static boolean flag(Properties p, String name, boolean otherwise) {
    String v = p.getProperty(name);
    if (v == null || v.isBlank()) {
      return otherwise;
    }
    if (v.trim().equalsIgnoreCase("true") || v.trim().equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(v.trim());
    }
    throw new IllegalArgumentException(name + " must be true or false, was \"" + v + "\"");
  }
}
