package org.cairn.cli.context;

import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * The client's tuning knobs that are no flag (tests and measurement scripts set them as system properties, e.g.
 * in {@code CAIRN_JAVA_OPTS}), typed and checked, with their defaults here. The agent's composition root reads them
 * once ({@link #system()}) and hands them on; a fetch reads them when it starts. No class keeps them in a static field.
 *
 * @param watchInterval how often the agent checks whether it is idle and whether its jar was replaced
 *     ({@value #WATCH_MILLIS}, milliseconds, 1 or more)
 * @param trimAfter idle this long, the agent gives its unused heap back ({@value #TRIM_AFTER_SECONDS}, seconds, 0 or more)
 * @param writebackBytes a fetch to a file has the kernel write back every this many bytes; 0 only at the end
 *     ({@value #WRITEBACK_BYTES}, 0 or more)
 */
public record Tunables(Duration watchInterval, Duration trimAfter, long writebackBytes) {
  public static final String WATCH_MILLIS = "cairn.agent.watchMillis";
  public static final String TRIM_AFTER_SECONDS = "cairn.agent.trimAfterSeconds";
  public static final String WRITEBACK_BYTES = "cairn.writebackBytes";
  /** 5 s, 30 s and 16 MiB. */
  public static final Tunables DEFAULT = new Tunables(Duration.ofSeconds(5), Duration.ofSeconds(30), 16L << 20);

  /** @throws IllegalArgumentException naming the knob that is out of range */
  public Tunables {
    if (watchInterval == null || watchInterval.toMillis() < 1) {
      throw new IllegalArgumentException(WATCH_MILLIS + " must be 1 ms or more, was " + watchInterval);
    }
    if (trimAfter == null || trimAfter.isNegative()) {
      throw new IllegalArgumentException(TRIM_AFTER_SECONDS + " must be 0 s or more, was " + trimAfter);
    }
    if (writebackBytes < 0) {
      throw new IllegalArgumentException(WRITEBACK_BYTES + " must be 0 or more, was " + writebackBytes);
    }
  }

  /**
   * The knobs {@code property} sets (unset: the default).
   *
   * @throws IllegalArgumentException one line naming a knob that is not a whole number or is out of range
   */
  public static Tunables from(UnaryOperator<String> property) {
    long watch = number(property, WATCH_MILLIS, DEFAULT.watchInterval.toMillis());
    long trim = number(property, TRIM_AFTER_SECONDS, DEFAULT.trimAfter.toSeconds());
    long writeback = number(property, WRITEBACK_BYTES, DEFAULT.writebackBytes);
    return new Tunables(Duration.ofMillis(watch), Duration.ofSeconds(trim), writeback);
  }

  private static long number(UnaryOperator<String> property, String name, long otherwise) {
    String v = property.apply(name);
    if (v == null || v.isBlank()) {
      return otherwise;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("-D" + name + " must be a whole number, was '" + v + "'");
    }
  }

  /** The knobs this process's system properties set now. */
  public static Tunables system() {
    return from(System::getProperty);
  }
}
