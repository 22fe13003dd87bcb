package org.cairn.client.store;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.util.concurrent.Executor;
import org.cairn.client.tuning.ClientTuning;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.net.PeerClient;

/**
 * One store of a checkpoint image as a version (ARCHITECTURE.md, "A store, top to bottom"; FALCON §3.3, stdchk §IV), in three phases a reader
 * can open one at a time: {@link StorePlan} (placement, probes, the dedup index), {@link StoreTransfer} (the core store
 * pipeline and the piece writers, with the executors they need) and {@link StoreCommit} (the version's commit, its
 * catalog record, the bandwidth report). Each phase hands the next what it made; nothing comes back here between them.
 * A store that fails before the commit leaves no version (the pieces sent are garbage for GC).
 */
public final class StoreSession {
  private final TrackerClient tracker;
  private final PeerClient peers;
  private final StoreOptions options;
  private final ClientTuning tuning;
  private final Executor records;

  /**
   * @param records where the version's catalog record is put on the grid after the store returns (a resident agent's);
   *     null: before it returns
   */
  public StoreSession(TrackerClient tracker, PeerClient peers, StoreOptions options, ClientTuning tuning, Executor records) {
    this.tracker = tracker;
    this.peers = peers;
    this.options = options;
    this.tuning = java.util.Objects.requireNonNull(tuning, "tuning");
    this.records = records;
  }

  /** Stores the image {@code in} (about {@code sizeHint} bytes; 0 or less: unknown) and says what the store did. */
  public StoreOutcome run(InputStream in, long sizeHint) throws IOException {
    long start = System.nanoTime();
    StorePlan plan = StorePlan.make(tracker, peers, options, tuning, sizeHint);
    try (StoreTransfer transfer = new StoreTransfer(tracker, peers, plan, options, tuning, records != null)) {
      StoreTransfer.Sent sent = transfer.run(in);
      return new StoreCommit(tracker, options, tuning, records).commit(plan, transfer, sent, start);
    }
  }

  /** This machine's host name ("unknown" if it has none): a manifest's host, and a node's default name. */
  public static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
