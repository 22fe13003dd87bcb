package org.cairn.client.store;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.cairn.client.tuning.ClientTuning;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.TrackerHttp;
import org.cairn.core.api.catalog.CommitRequest;
import org.cairn.core.manifest.Manifest;
import org.cairn.core.pipeline.StoreResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store's last phase, commit: the manifest of what the transfer sent is committed atomically (the version exists
 * from then on; anything that failed before left none, and the pieces sent are garbage for GC), then the version's
 * catalog record goes onto the grid ({@link CatalogCopy}) and the last bandwidth measurements to the tracker
 * ({@link TrafficReports}): before the store returns, or after it on a resident agent's {@code records} executor,
 * so the job waits for neither.
 */
final class StoreCommit {
  private static final Logger LOG = LoggerFactory.getLogger(StoreCommit.class);

  private final TrackerClient tracker;
  private final StoreOptions o;
  private final ClientTuning tuning;
  private final Executor records;

  /** @param records where the catalog record is stored after the store returns (null: before it returns) */
  StoreCommit(TrackerClient tracker, StoreOptions o, ClientTuning tuning, Executor records) {
    this.tracker = tracker;
    this.o = o;
    this.tuning = tuning;
    this.records = records;
  }

  /** Commits what {@code transfer} sent ({@code sent}) as the version, and says what the store did; {@code start}: its System.nanoTime. */
  StoreOutcome commit(StorePlan plan, StoreTransfer transfer, StoreTransfer.Sent sent, long start) throws IOException {
    StoreResult res = sent.pipeline();
    if (res.deltaChunks() > 0) {
      LOG.debug("store {}.{}: {} chunks coded against a base", o.app(), o.node(), res.deltaChunks());
    }
    long committing = System.nanoTime();
    CommitRequest.Answer answer = commitPatiently(new CommitRequest(manifest(res), sent.chunks(), transfer.session(),
        o.soft() ? transfer.softHolds() : null), o.commitTimeout());
    transfer.committed();
    LOG.debug("store {}.{}: placement and probes {} ms, dedup index {} ms, pipeline {} ms ({} chunks named in {} calls), commit {} ms",
        o.app(), o.node(), plan.placeNanos / 1_000_000, plan.indexNanos / 1_000_000, sent.nanos() / 1_000_000, sent.chunks().size(),
        transfer.namingCalls(), (System.nanoTime() - committing) / 1_000_000);
    long recordBytes = recordAndReport(transfer, answer.step());
    return new StoreOutcome(o.app(), o.node(), answer.step(), res.bytesIn(), res.chunks().size(), res.newChunks(), sent.bytes(),
        (System.nanoTime() - start) / 1e9, plan.hosts.hostIds(), plan.hosts.replaced(), plan.probed,
        answer.set() == null ? null : answer, res.newBytes(), res.encodedBytes(), recordBytes);
  }

  /** The version's manifest: the pipeline's chunks with the options' coding, kind and set part. */
  private Manifest manifest(StoreResult res) {
    return Manifest.of(o.app(), o.node(), o.step(), o.chunking().maxChunk(o.chunkSize()), o.redundancy().spec(), o.compressor().spec(),
        o.kind(), System.currentTimeMillis(), StoreSession.hostName(), res.chunks(), o.crypto().encryption().spec(),
        o.crypto().fingerprint()).withChunking(o.chunking().spec()).withSet(o.set());
  }

  /**
   * Puts the committed version's catalog record on the grid and reports the traffic: now (the bytes of the record's
   * pieces), or after the store returns when it has a {@code records} executor (-1). The job waits for neither there:
   * one call to the tracker per host, 10-30 ms for a successor.
   */
  private long recordAndReport(StoreTransfer transfer, long step) {
    if (records != null) {
      transfer.answered(records);
      transfer.afterwards(records, () -> {
        record(transfer, step);
        transfer.traffic().report();
      });
      return -1;
    }
    long recorded = System.nanoTime();
    long bytes = record(transfer, step);
    LOG.debug("store {}.{}: catalog record {} ms", o.app(), o.node(), (System.nanoTime() - recorded) / 1_000_000);
    transfer.traffic().report();
    return bytes;
  }

  private long record(StoreTransfer transfer, long step) {
    return tuning.catalogRecords() ? CatalogCopy.store(tracker, transfer, o.redundancy(), o.app(), o.node(), step) : 0;
  }

  /**
   * Commits; while the tracker is unreachable (restarting), tries again every second until the
   * timeout. The commit carries the store's session, so the tracker answers a repeated commit that
   * had already landed with the same step instead of committing a second version.
   */
  private CommitRequest.Answer commitPatiently(CommitRequest commit, Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean said = false;
    while (true) {
      try {
        return tracker.commit(commit);
      } catch (TrackerHttp.UnreachableException e) {
        if (System.nanoTime() >= deadline) {
          throw new IOException(e.getMessage() + "; gave up committing after " + timeout.toSeconds() + " s, so no version was made", e);
        }
        if (!said) {
          said = true;
          LOG.warn("{}; every piece is stored, trying to commit for up to {} s", e.getMessage(), timeout.toSeconds());
        }
        try {
          Thread.sleep(1000);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while waiting to commit", ie);
        }
      }
    }
  }
}
