package org.cairn.cli.criu;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * How the hosts of one job name a round's checkpoint set without talking to each other: from the clock (docs/operations.md,
 * "CRIU jobs on several hosts"). A launch's periodic dumps run on the wall-clock multiples of its interval (since
 * 1970-01-01 UTC), so every host dumps at the same instants, and each round is named by its instant as scheduled, not by
 * when the dump ran: {@code 20261202T203000Z}. A dump on demand (SIGUSR1 or SIGTERM to a launch, {@code criu dump} without
 * {@code --set}) is named by the UTC minute it is asked in, rounded to the nearest, and what asked for it:
 * {@code 20261202T2031Z-usr1}; hosts asked at once agree unless their clocks straddle a half minute.
 */
final class SetRounds {
  private static final DateTimeFormatter SECOND = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmm'Z'").withZone(ZoneOffset.UTC);

  private SetRounds() {}

  /** The first wall-clock multiple of {@code interval} after {@code now}. */
  static Instant nextRound(Instant now, Duration interval) {
    long every = interval.toMillis();
    if (every < 1) {
      throw new IllegalArgumentException("an interval of at least 1 ms, was " + interval);
    }
    long at = Math.floorDiv(now.toEpochMilli(), every) * every + every;
    return Instant.ofEpochMilli(at);
  }

  /** The name of the periodic round scheduled at {@code round}. */
  static String periodic(Instant round) {
    return SECOND.format(round);
  }

  /** The name of a dump on demand asked for at {@code now} by {@code what} (usr1, term, dump). */
  static String onDemand(Instant now, String what) {
    Instant minute = Instant.ofEpochSecond(Math.floorDiv(now.getEpochSecond() + 30, 60) * 60);
    return MINUTE.format(minute) + "-" + what;
  }
}
