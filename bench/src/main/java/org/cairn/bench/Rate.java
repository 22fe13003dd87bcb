package org.cairn.bench;

/**
 * Times a repeated pass over data: one untimed warm-up pass (lets C2 compile the loop), then passes
 * until at least the minimum time has elapsed. Rates are in MB/s of input (1 MB = 10^6 bytes).
 */
public final class Rate {
  /** One pass over the data; returns the input bytes it processed. */
  @FunctionalInterface
  public interface Pass {
    long run() throws Exception;
  }

  private Rate() {}

  public static double mbPerSec(Pass pass, double minSeconds) throws Exception {
    pass.run();
    long bytes = 0;
    long start = System.nanoTime();
    long deadline = start + (long) (minSeconds * 1e9);
    long now;
    do {
      bytes += pass.run();
      now = System.nanoTime();
    } while (now < deadline);
    return bytes / ((now - start) / 1e9) / 1e6;
  }
}
