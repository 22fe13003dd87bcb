package org.cairn.tracker.catalog;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.cairn.core.api.catalog.CatalogRecordBlob;
import org.cairn.core.catalog.CatalogRecord;
import org.cairn.core.crypto.CatalogKey;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.tracker.store.Batch;
import org.cairn.tracker.store.TrackerStore;

/**
 * Makes each committed version's catalog record: the version and its chunks' index entries
 * ({@link RecordContent}), packed and sealed under the grid's catalog key. The store that committed
 * the version fetches it right after its commit, stores it on the grid like a chunk and attaches it
 * ({@link #attach}). A record is made on request, never kept here: the tracker's
 * database is what records exist to replace.
 */
public final class CatalogRecords {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CatalogRecords.class);

  private final TrackerStore store;
  private final Catalog catalog;
  private final CatalogKey.Sealer sealer;

  /** @param privateKey the grid's catalog key ({@code DATA/catalog.key}) */
  public CatalogRecords(TrackerStore store, Catalog catalog, String privateKey) {
    this.store = store;
    this.catalog = catalog;
    this.sealer = CatalogKey.sealer(CatalogKey.publicOf(privateKey));
  }

  /** The sealed record of app/node/step, or null if there is no such version. */
  public CatalogRecordBlob seal(String app, String node, long step) throws IOException {
    Catalog.VersionEntries e = catalog.entries(app, node, step);
    if (e == null) {
      return null;
    }
    Map<String, ChunkRecord> chunks = new LinkedHashMap<>();
    for (Map.Entry<ChunkId, ChunkRecord> c : e.chunks().entrySet()) {
      if (c.getValue() != null) {
        chunks.put(c.getKey().hex(), c.getValue());
      }
    }
    VersionRecord v = e.version().withRecord(null);
    byte[] plain = JSON.writeValueAsBytes(new RecordContent(RecordContent.FORMAT, app, node, step, catalog.policy(app), v, chunks));
    if (plain.length > CatalogRecord.MAX_PLAINTEXT) {
      throw new IllegalArgumentException("the catalog record of " + app + "." + node + "." + step + " would be " + plain.length
          + " bytes, more than " + CatalogRecord.MAX_PLAINTEXT);
    }
    byte[] sealed = sealer.seal(CatalogRecord.pack(plain));
    return new CatalogRecordBlob(app, node, step, CatalogRecord.idOf(sealed).hex(), Base64.getEncoder().encodeToString(sealed));
  }

  /**
   * The pieces of app/node/step's catalog record are stored ({@code c}: as a commit names a chunk, with
   * all its holders): the index keeps them, with one reference held by the version. False if the
   * version is gone or already has a record (then the pieces are garbage).
   */
  public boolean attach(String app, String node, long step, Catalog.NewChunk c) throws IOException {
    synchronized (catalog) { // the catalog's own lock: no commit or delete of this version in between
      return attachLocked(app, node, step, c);
    }
  }

  private boolean attachLocked(String app, String node, long step, Catalog.NewChunk c) throws IOException {
    if (!org.cairn.core.catalog.CatalogRecord.isRecord(c.id())) {
      throw new IllegalArgumentException("chunk " + c.id().shortHex() + " is not a catalog record");
    }
    Redundancy r = Redundancy.parse(c.redundancy() == null ? "" : c.redundancy());
    if (c.holders().size() != r.totalFragments() || c.holders().stream().anyMatch(java.util.Objects::isNull) || c.tags() == null
        || c.tags().size() != c.holders().size()) {
      throw new IllegalArgumentException("a catalog record needs a holder and a tag for each of its " + r.totalFragments() + " pieces");
    }
    c.tags().forEach(FragmentKey::parseTag);
    byte[] key = CatalogKeys.versionKey(app, node, step);
    byte[] value = store.get(TrackerStore.Family.VERSIONS, key);
    if (value == null) {
      return false;
    }
    VersionRecord v = JSON.readValue(value, VersionRecord.class);
    if (v.record() != null || store.get(TrackerStore.Family.CHUNKS, CatalogKeys.chunkKey(app, c.id())) != null) {
      return false;
    }
    Batch batch = new Batch()
        .put(TrackerStore.Family.VERSIONS, key, JSON.writeValueAsBytes(v.withRecord(c.id().hex())))
        .put(TrackerStore.Family.CHUNKS, CatalogKeys.chunkKey(app, c.id()), new ChunkRecord(
            new java.util.ArrayList<>(c.holders()), c.storedBytes(), 1, r.spec(), null, new java.util.ArrayList<>(c.tags()), null).encode());
    store.write(batch);
    catalog.journal(app, node, step, List.of(c.id()), batch); // a new chunk and a version update: the repair scan folds it in
    LOG.debug("{}.{}.{}: catalog record {} on {}", app, node, step, c.id().shortHex(), c.holders());
    return true;
  }
}
