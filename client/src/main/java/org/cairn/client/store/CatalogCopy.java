package org.cairn.client.store;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.CatalogRecordBlob;
import org.cairn.core.api.catalog.CommitRequest;
import org.cairn.core.api.catalog.RecordAttach;
import org.cairn.core.catalog.CatalogRecord;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.protocol.FragmentKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * After a commit, puts the version's catalog record on the grid: the tracker seals it
 * (GET /api/v1/records), the store codes it with its own redundancy, sends all n pieces to its own
 * hosts (named to the tracker first, as any chunk, so GC spares them) and attaches them (POST
 * /api/v1/records). The version is committed whatever happens here: a record that could not be stored
 * is logged, and that version is the one that recovery from the peers would not find. Part of a store's
 * commit phase (StoreCommit), which skips it when ClientTuning.catalogRecords is off.
 */
final class CatalogCopy {
  private static final Logger LOG = LoggerFactory.getLogger(CatalogCopy.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private CatalogCopy() {}

  /**
   * Stores and attaches app/node/step's record through the store's {@code transfer} (its hosts, piece writer and io);
   * the bytes of pieces sent (0 if none were, or the step is a set part's 0).
   */
  static long store(TrackerClient tracker, StoreTransfer transfer, Redundancy r, String app, String node, long step) {
    if (step <= 0) {
      return 0;
    }
    PieceWriter writer = transfer.writer();
    PendingChunks pending = transfer.pendingChunks(app, TIMEOUT);
    try {
      long t0 = System.nanoTime();
      CatalogRecordBlob blob = tracker.record(app, node, step);
      long t1 = System.nanoTime();
      byte[] sealed = blob.sealedBytes();
      ChunkId id = CatalogRecord.idOf(sealed);
      if (!id.hex().equals(blob.id())) {
        throw new IOException("the tracker's record " + blob.id() + " has other bytes (" + id.hex() + ")");
      }
      Fragment[] pieces = CatalogRecord.code(sealed, r);
      pending.register(id).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      long t2 = System.nanoTime();
      @SuppressWarnings("unchecked")
      CompletableFuture<String>[] acks = new CompletableFuture[pieces.length];
      for (int i = 0; i < pieces.length; i++) {
        acks[i] = writer.send(i, pieces[i]);
      }
      CompletableFuture.allOf(acks).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      long t3 = System.nanoTime();
      String[] holders = new String[pieces.length];
      String[] tags = new String[pieces.length];
      long bytes = 0;
      for (int i = 0; i < pieces.length; i++) {
        holders[i] = acks[i].join();
        tags[i] = FragmentKey.tagHex(pieces[i].tag());
        bytes += pieces[i].serializedSize();
      }
      boolean attached = tracker.attachRecord(new RecordAttach(app, node, step, new CommitRequest.NewChunk(id.hex(),
          Arrays.asList(holders), Arrays.asList(tags), bytes, r.spec()))).attached();
      LOG.debug("{}.{}.{}: catalog record {} ({} bytes sealed) {}: sealed {} ms, named {} ms, pieces {} ms, attached {} ms", app, node,
          step, id.shortHex(), sealed.length, attached ? "stored" : "not attached (the version already has one, or is gone)",
          (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000, (System.nanoTime() - t3) / 1_000_000);
      return bytes;
    } catch (IOException | ExecutionException | TimeoutException | RuntimeException e) {
      LOG.warn("{}.{}.{} is committed, but its catalog record could not be put on the grid ({}); recovery from the peers would"
          + " not find this version", app, node, step, e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e);
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    } finally {
      pending.abandon(); // attached (the index keeps the pieces) or not (they are garbage)
    }
  }
}
