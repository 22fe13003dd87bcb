package org.cairn.peer.repair;

import org.cairn.peer.load.Throttle;

/**
 * How much repair one donor does at once: {@code threads} chunks rebuilt in parallel, bytes read from sources through
 * {@code download} and sent to targets through {@code upload} (the donor's repair caps, which its network limit
 * includes: see PeerConfig#repairDownloadRate), and batches claimed of at most {@code batchBytes} of rebuilt pieces.
 */
public record RepairLimits(int threads, Throttle download, Throttle upload, long batchBytes) {
  /**
   * A batch's rebuilt bytes: a few MiB per target at 4+2 over a handful of targets, so each gets one PUT of about the
   * client's batch size; two batches in flight stay within the tracker's default bytes per peer.
   */
  public static final long DEFAULT_BATCH_BYTES = 16L << 20;

  public RepairLimits {
    if (threads < 1 || batchBytes < 1) {
      throw new IllegalArgumentException("repair threads and batch bytes must be >= 1, were " + threads + " and " + batchBytes);
    }
  }
}
