package org.cairn.tracker.catalog;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.tracker.store.Batch;
import org.cairn.tracker.store.TrackerStore;

/**
 * Writes a catalog rebuilt from the grid's catalog records into an empty store
 * ({@code cairn-tracker recover --from-peers}). Each version comes from its record (the newest record
 * when one version has several); each chunk's index entry from the newest record that names it, with
 * its holders taken from what the peers hold now (a piece no peer holds is left unassigned, for
 * repair); reference counts are counted again from the versions, their bases and their records.
 */
public final class CatalogRebuild {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A record as found on the grid: its chunk id, its contents, and its own index entry (holders and tags as the peers hold it). */
  public record Found(ChunkId id, RecordContent content, ChunkRecord entry) {}

  /** What was written. {@code unreadable}: chunks with fewer pieces held than needed (their versions cannot be read). */
  public record Summary(int versions, int apps, long chunks, long piecesMissing, long unreadable, Map<String, Integer> versionsByApp) {}

  private CatalogRebuild() {}

  /** @param holderOf which peer holds each fragment key (any one holder) */
  public static Summary write(TrackerStore store, List<Found> records, Map<FragmentKey, String> holderOf) throws IOException {
    // one record per version: the newest
    Map<String, Found> byVersion = new TreeMap<>();
    for (Found f : records) {
      RecordContent c = f.content();
      String key = c.app() + "\u0000" + c.node() + "\u0000" + c.step();
      Found had = byVersion.get(key);
      if (had == null || had.content().version().committedAt() < c.version().committedAt()) {
        byVersion.put(key, f);
      }
    }
    // per app: chunk entries from the newest record naming them, and references counted again
    Map<String, Map<ChunkId, ChunkRecord>> entries = new HashMap<>();
    Map<String, Map<ChunkId, Long>> entryTime = new HashMap<>();
    Map<String, Map<ChunkId, Integer>> refs = new HashMap<>();
    Map<String, Integer> versionsByApp = new TreeMap<>();
    Map<String, String> policies = new HashMap<>();
    int versions = 0;
    for (Found f : byVersion.values()) {
      RecordContent c = f.content();
      String app = c.app();
      CatalogKeys.checkName("app", app);
      CatalogKeys.checkName("node", c.node());
      Map<ChunkId, ChunkRecord> e = entries.computeIfAbsent(app, a -> new LinkedHashMap<>());
      Map<ChunkId, Long> t = entryTime.computeIfAbsent(app, a -> new HashMap<>());
      long when = c.version().committedAt();
      for (Map.Entry<String, ChunkRecord> ce : c.chunks().entrySet()) {
        ChunkId id = ChunkId.parse(ce.getKey());
        if (!t.containsKey(id) || t.get(id) < when) {
          e.put(id, ce.getValue());
          t.put(id, when);
        }
      }
      e.put(f.id(), f.entry());
      t.put(f.id(), Long.MAX_VALUE);
      Map<ChunkId, Integer> r = refs.computeIfAbsent(app, a -> new HashMap<>());
      ChunkRefs.references(c.version().manifests()).forEach((id, n) -> r.merge(id, n, Integer::sum));
      r.merge(f.id(), 1, Integer::sum);
      if (c.policy() != null) {
        policies.putIfAbsent(app, c.policy());
      }
      Batch b = new Batch().put(TrackerStore.Family.VERSIONS, CatalogKeys.versionKey(app, c.node(), c.step()),
          JSON.writeValueAsBytes(c.version().withRecord(f.id().hex())));
      CatalogKeys.indexSessions(b, app, c.node(), c.step(), c.version());
      store.write(b);
      versions++;
      versionsByApp.merge(app, 1, Integer::sum);
    }
    long chunks = 0;
    long missing = 0;
    long unreadable = 0;
    for (Map.Entry<String, Map<ChunkId, ChunkRecord>> ae : entries.entrySet()) {
      String app = ae.getKey();
      Map<ChunkId, Integer> r = refs.get(app);
      for (ChunkRecord c : ae.getValue().values()) {
        if (c.base() != null) {
          r.merge(c.baseId(), 1, Integer::sum);
        }
      }
      Batch b = new Batch();
      for (Map.Entry<ChunkId, ChunkRecord> ce : ae.getValue().entrySet()) {
        ChunkId id = ce.getKey();
        ChunkRecord c = ce.getValue();
        Integer n = r.get(id);
        if (n == null || n == 0) {
          continue; // named by a record, referenced by no version kept
        }
        List<String> holders = new ArrayList<>(c.holders().size());
        int held = 0;
        for (int i = 0; i < c.holders().size(); i++) {
          String tag = c.tag(i);
          String peer = tag == null ? null : holderOf.get(new FragmentKey(id, i, FragmentKey.parseTag(tag)));
          holders.add(peer);
          if (peer != null) {
            held++;
          }
        }
        missing += c.holders().size() - held;
        if (held < c.needed()) {
          unreadable++;
        }
        b.put(TrackerStore.Family.CHUNKS, CatalogKeys.chunkKey(app, id), new ChunkRecord(holders, c.storedBytes(), n,
            c.redundancy(), c.client(), c.tags(), c.base()).encode());
        chunks++;
        if (b.size() >= 10_000) {
          store.write(b);
          b = new Batch();
        }
      }
      String policy = policies.get(app);
      if (policy != null) {
        b.put(TrackerStore.Family.POLICIES, app.getBytes(StandardCharsets.UTF_8), policy.getBytes(StandardCharsets.UTF_8));
      }
      if (b.size() > 0) {
        store.write(b);
      }
    }
    return new Summary(versions, entries.size(), chunks, missing, unreadable, versionsByApp);
  }
}
