package org.cairn.core.placement;

/**
 * What is being placed and for whom: a checkpoint of {@code imageBytes} coded (m, k), for a compute
 * host with mean time to failure {@code mttfSeconds}, checkpointing every {@code intervalSeconds},
 * having computed {@code usefulSeconds} so far (FALCON eq. 3's MTTF_cmp, CI and T_curr).
 * {@code defaultBandwidth} (bytes/s) stands in for hosts never measured.
 */
public final class PlacementRequest {
  private final long imageBytes;
  private final int m;
  private final int k;
  private final double mttfSeconds;
  private final double intervalSeconds;
  private final double usefulSeconds;
  private final double defaultBandwidth;
  private final int alternates;

  public PlacementRequest(long imageBytes, int m, int k, double mttfSeconds, double intervalSeconds, double usefulSeconds,
      double defaultBandwidth, int alternates) {
    if (imageBytes < 0) {
      throw new IllegalArgumentException("image size must be >= 0, was " + imageBytes);
    }
    if (m < 1 || k < 0 || m + k > 256) {
      throw new IllegalArgumentException("need m >= 1, k >= 0, m + k <= 256, was m=" + m + " k=" + k);
    }
    if (!(intervalSeconds > 0)) {
      throw new IllegalArgumentException("checkpoint interval must be positive, was " + intervalSeconds);
    }
    if (!(mttfSeconds >= 0) || !(usefulSeconds >= 0)) {
      throw new IllegalArgumentException("MTTF and useful time must be >= 0, were " + mttfSeconds + ", " + usefulSeconds);
    }
    if (!(defaultBandwidth > 0)) {
      throw new IllegalArgumentException("default bandwidth must be positive, was " + defaultBandwidth);
    }
    if (alternates < 0) {
      throw new IllegalArgumentException("alternates must be >= 0, was " + alternates);
    }
    this.imageBytes = imageBytes;
    this.m = m;
    this.k = k;
    this.mttfSeconds = mttfSeconds;
    this.intervalSeconds = intervalSeconds;
    this.usefulSeconds = usefulSeconds;
    this.defaultBandwidth = defaultBandwidth;
    this.alternates = alternates;
  }

  /** A request with FALCON-like defaults: MTTF 1 h, CI 10 min, nothing computed yet, 100 Mbit/s, m+k alternates. */
  public static PlacementRequest of(long imageBytes, int m, int k) {
    return new PlacementRequest(imageBytes, m, k, 3600, 600, 0, 12.5e6, m + k);
  }

  public long imageBytes() {
    return imageBytes;
  }

  public int m() {
    return m;
  }

  public int k() {
    return k;
  }

  public int n() {
    return m + k;
  }

  public double mttfSeconds() {
    return mttfSeconds;
  }

  public double intervalSeconds() {
    return intervalSeconds;
  }

  public double usefulSeconds() {
    return usefulSeconds;
  }

  public double defaultBandwidth() {
    return defaultBandwidth;
  }

  /** How many ranked alternates to return beyond the n chosen hosts. */
  public int alternates() {
    return alternates;
  }

  /** Bytes each host receives: one fragment of n/m bytes (FALCON eq. 2's numerator). */
  public long fragmentBytes() {
    return (imageBytes + m - 1) / m;
  }
}
