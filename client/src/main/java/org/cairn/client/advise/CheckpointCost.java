package org.cairn.client.advise;

import java.util.ArrayList;
import java.util.List;

/**
 * What a checkpoint costs the job, from its recent pauses ({@link CheckpointCosts}): the median of the newest
 * {@link #WINDOW} (one slow store does not move it), with how many there were and their range. With none, the
 * fallback and confidence none; 1-2 samples low, 3-9 medium, 10 or more high.
 */
public record CheckpointCost(double seconds, int samples, Double minSeconds, Double maxSeconds, String confidence, String source) {
  /** Samples the median is taken over. */
  public static final int WINDOW = 10;

  public static CheckpointCost of(List<CheckpointCosts.Sample> samples, double fallbackSeconds) {
    List<CheckpointCosts.Sample> newest = samples.subList(Math.max(0, samples.size() - WINDOW), samples.size());
    if (newest.isEmpty()) {
      return new CheckpointCost(fallbackSeconds, 0, null, null, "none", "default");
    }
    List<Double> s = new ArrayList<>();
    for (CheckpointCosts.Sample x : newest) {
      s.add(x.pauseMillis() / 1000.0);
    }
    s.sort(null);
    int n = s.size();
    double median = n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    String confidence = n < 3 ? "low" : n < 10 ? "medium" : "high";
    return new CheckpointCost(median, n, s.get(0), s.get(n - 1), confidence, newest.get(newest.size() - 1).source());
  }

  /** This cost with {@code seconds} given by the user (confidence high: it is what they said). */
  public static CheckpointCost given(double seconds) {
    return new CheckpointCost(seconds, 0, null, null, "given", "given");
  }
}
