package org.cairn.client.advise;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.VersionRow;
import org.cairn.core.api.member.HostHistory;
import org.cairn.core.availability.StateSeries;
import org.cairn.core.availability.Uptime;
import org.cairn.core.config.Durations;
import org.cairn.core.interval.CheckpointInterval;

/**
 * The checkpoint interval for one node of an app running on one compute host: its mean time to interruption from
 * the host's availability history on the tracker ({@link Uptime}), what a checkpoint costs the job from the node's
 * recent pauses on this host ({@link CheckpointCost}), and Young's or Daly's interval from the two
 * ({@link CheckpointInterval}).
 */
public final class Advisor {
  /**
   * The mean time to interruption assumed without history: desktop-grid availability studies measure hosts' mean
   * available intervals in hours; 4 h with a 10 s checkpoint gives about 9 minutes, near the 10 minutes jobs used.
   */
  public static final Duration DEFAULT_MTBF = Duration.ofHours(4);
  /** The checkpoint cost assumed before the node has stored from this host. */
  public static final Duration DEFAULT_COST = Duration.ofSeconds(10);
  /** The history looked at unless told otherwise (the tracker's default retention). */
  public static final String DEFAULT_WINDOW = "14d";
  /** The most slots of history a tracker answers with. */
  public static final long MAX_SLOTS = 1_000_000;

  private final TrackerClient tracker;
  private final CheckpointCosts costs;

  public Advisor(TrackerClient tracker, CheckpointCosts costs) {
    this.tracker = tracker;
    this.costs = costs;
  }

  /**
   * The advice for app/node on compute host {@code client} over {@code window} of history (null: {@link #DEFAULT_WINDOW}, fewer where the tracker's slots are short); {@code givenCost} (null: measured)
   * is the checkpoint cost the user knows.
   */
  public Advice advise(String app, String node, String client, String window, Duration givenCost) throws IOException {
    List<VersionRow> versions = tracker.versions(app, node); // the caller may read app: the tracker says no otherwise
    long latest = versions.stream().mapToLong(VersionRow::step).max().orElse(0);
    if (window == null) {
      window = defaultWindow(client);
    }
    Duration w = Durations.parse(window);
    HostHistory.Compute h = tracker.computeHistory(client, window);
    StateSeries series = StateSeries.compute(h.firstSlot(), h.states());
    Uptime up = Uptime.of(series, series.firstSlot(), series.endSlot(), h.slotMillis(), DEFAULT_MTBF.toMillis() / 1000.0);
    CheckpointCost cost = givenCost != null ? CheckpointCost.given(Math.max(0.001, givenCost.toMillis() / 1000.0))
        : CheckpointCost.of(costs.recent(app, node), DEFAULT_COST.toMillis() / 1000.0);
    return advice(app, node, client, w, up, cost, latest);
  }

  /**
   * {@link #DEFAULT_WINDOW}, or less where the tracker's slots are so short that it would be more than the
   * {@link #MAX_SLOTS} a tracker serves (learned from a one-slot answer).
   */
  private String defaultWindow(String client) throws IOException {
    long slotMillis = tracker.computeHistory(client, "1ms").slotMillis();
    long most = Math.min(Durations.parse(DEFAULT_WINDOW).toMillis(), MAX_SLOTS * slotMillis);
    return most + "ms";
  }

  /** The advice from the two estimates. */
  static Advice advice(String app, String node, String client, Duration window, Uptime up, CheckpointCost cost, long latest) {
    CheckpointInterval.Choice choice = CheckpointInterval.optimal(cost.seconds(), up.mtbfSeconds());
    String mtbfSource = up.confidence().equals("none") ? "default" : up.interruptions() == 0 ? "history (no interruption seen)" : "history";
    return new Advice(app, node, client, Math.max(1, Math.round(choice.seconds())), choice.formula(), round(choice.young()),
        round(choice.daly()), round(up.mtbfSeconds()), round(up.lowSeconds()), round(up.highSeconds()), up.interruptions(),
        round(up.upSeconds()), window.toSeconds(), up.confidence(), mtbfSource, round(cost.seconds()), cost.samples(),
        round(cost.minSeconds()), round(cost.maxSeconds()), cost.confidence(), cost.source(), lower(up.confidence(), cost.confidence()),
        latest);
  }

  private static final List<String> LEVELS = List.of("none", "low", "medium", "high", "given");

  /** The lower of two confidences (a cost the user gave ranks above every measured one). */
  static String lower(String a, String b) {
    return LEVELS.indexOf(a) <= LEVELS.indexOf(b) ? a : b;
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  private static Double round(Double v) {
    return v == null ? null : round(v.doubleValue());
  }
}
