package org.cairn.tracker.catalog;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.cairn.core.api.CatalogRecordBlob;
import org.cairn.core.catalog.CatalogRecord;
import org.cairn.core.crypto.CatalogKey;
import org.cairn.core.hash.ChunkId;

/**
 * Makes each committed version's catalog record (issue #21): the version and its chunks' index entries
 * ({@link RecordContent}), packed and sealed under the grid's catalog key. The store that committed
 * the version fetches it right after its commit, stores it on the grid like a chunk and attaches it
 * ({@link Catalog#attachRecord}). A record is made on request, never kept here: the tracker's
 * database is what records exist to replace.
 */
public final class CatalogRecords {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Catalog catalog;
  private final CatalogKey.Sealer sealer;

  /** @param privateKey the grid's catalog key ({@code DATA/catalog.key}) */
  public CatalogRecords(Catalog catalog, String privateKey) {
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
}
