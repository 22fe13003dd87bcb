package org.cairn.tracker.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.manifest.Manifest;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.tracker.store.Batch;
import org.cairn.tracker.store.TrackerStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chunk index's reference counts: a version (or a checkpoint set's part) holds one reference
 * to each distinct chunk it names. A commit charges them, making index entries for chunks the store
 * sent (or re-coding weaker held ones); a deletion or an expired set releases them, and a chunk left
 * with none leaves the index (its pieces become garbage). Changes go into the caller's batch.
 */
final class ChunkRefs {
  private static final Logger LOG = LoggerFactory.getLogger(ChunkRefs.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TrackerStore store;

  ChunkRefs(TrackerStore store) {
    this.store = store;
  }

  /** The chunks a store sent, as hex ids. */
  static List<String> sentIds(List<Catalog.NewChunk> newChunks) {
    List<String> out = new ArrayList<>(newChunks.size());
    for (Catalog.NewChunk c : newChunks) {
      out.add(c.id().hex());
    }
    return out;
  }

  /** What charging a manifest's chunks cost: bytes stored for the chunks it sent and how many were new to the app. */
  /**
   * What a commit charged: the stored bytes and number of chunk records it wrote, the chunks that were
   * new to the index ({@code created}), and whether it replaced a held record (a chunk coded more strongly).
   */
  record Tally(long storedBytes, long added, List<ChunkId> created, boolean replaced) {}

  /**
   * Puts into {@code batch} one more reference to each distinct chunk of {@code m}: to the held
   * entry, or to a new entry made from the chunk the store sent (also when it is coded more strongly
   * than the held one). A chunk neither held nor sent is refused.
   */
  Tally charge(Manifest m, List<Catalog.NewChunk> newChunks, Batch batch) throws IOException {
    Map<ChunkId, Catalog.NewChunk> sent = new HashMap<>();
    for (Catalog.NewChunk c : newChunks) {
      sent.put(c.id(), c);
    }
    Set<ChunkId> unique = new LinkedHashSet<>();
    for (ChunkRef r : m.chunks()) {
      unique.add(r.id());
    }
    long storedBytes = 0;
    long added = 0;
    List<ChunkId> created = new ArrayList<>();
    boolean replaced = false;
    Working w = new Working(m.app());
    w.readAll(unique);
    for (ChunkId id : unique) {
      ChunkRecord held = w.get(id);
      Catalog.NewChunk c = sent.get(id);
      if (held != null && (c == null || !upgrades(c, held, m))) {
        w.put(id, held.withRefs(held.refs() + 1));
      } else {
        ChunkRecord record = newRecord(m, id, c, held);
        if (held == null) {
          created.add(id);
        } else {
          replaced = true;
        }
        if (held != null && held.base() != null) {
          w.release(held.baseId(), 1); // the replaced pieces were coded against it; these may not be
        }
        if (c.base() != null) {
          chargeBase(w, id, c.base());
        }
        w.put(id, record);
        storedBytes += c.storedBytes();
        added++;
      }
    }
    w.writeTo(batch);
    return new Tally(storedBytes, added, created, replaced);
  }

  /** One more reference to the base {@code id} is coded against: it must be held, and not be coded against another itself. */
  private static void chargeBase(Working w, ChunkId id, ChunkId baseId) throws IOException {
    if (baseId.equals(id)) {
      throw new IllegalArgumentException("chunk " + id.shortHex() + " names itself as its base");
    }
    ChunkRecord b = w.get(baseId);
    if (b == null) {
      throw new IllegalArgumentException("chunk " + id.shortHex() + " is coded against " + baseId.shortHex() + ", which app " + w.app
          + " does not hold (deleted meanwhile?): store again");
    }
    if (b.base() != null) {
      throw new IllegalArgumentException("chunk " + id.shortHex() + " is coded against " + baseId.shortHex()
          + ", which is itself coded against another chunk");
    }
    w.put(baseId, b.withRefs(b.refs() + 1));
  }

  private static ChunkRecord newRecord(Manifest m, ChunkId id, Catalog.NewChunk c, ChunkRecord held) {
    if (c == null) {
      throw new IllegalArgumentException("chunk " + id.shortHex() + " is neither held for app " + m.app() + " nor sent with the commit");
    }
    String coding = c.redundancy() == null ? m.redundancy() : Redundancy.parse(c.redundancy()).spec();
    Redundancy r = Redundancy.parse(coding);
    if (c.holders().size() != r.totalFragments()) {
      throw new IllegalArgumentException("chunk " + id.shortHex() + " has " + c.holders().size() + " holders, but "
          + coding + " makes " + r.totalFragments() + " fragments");
    }
    if (c.tags() == null || c.tags().size() != c.holders().size()) {
      throw new IllegalArgumentException("chunk " + id.shortHex() + " needs one tag per fragment (" + c.holders().size() + "), got "
          + (c.tags() == null ? "none" : c.tags().size()));
    }
    for (String t : c.tags()) {
      FragmentKey.parseTag(t); // 8 hex digits, or IllegalArgumentException
    }
    if (held != null) {
      LOG.info("chunk {} of app {}: re-coded from {} to {} by {}.{}", id.shortHex(), m.app(), held.redundancy(), coding, m.app(),
          m.node());
    }
    // a re-coded chunk keeps its references; its old pieces are no longer assigned, so GC removes them
    return new ChunkRecord(new ArrayList<>(c.holders()), c.storedBytes(), held == null ? 1 : held.refs() + 1, coding,
        m.clientHost(), new ArrayList<>(c.tags()), c.base() == null ? null : c.base().hex());
  }

  /**
   * Puts into {@code batch} the release of {@code counts.get(id)} references to each chunk; a chunk
   * left with none leaves the index (its fragments become garbage), and releases its base.
   */
  void release(String app, Map<ChunkId, Integer> counts, Batch batch) throws IOException {
    Working w = new Working(app);
    for (Map.Entry<ChunkId, Integer> e : counts.entrySet()) {
      w.release(e.getKey(), e.getValue());
    }
    w.writeTo(batch);
  }

  /**
   * An app's index entries as one change sees them: read once, changed in memory, written to the
   * batch at the end, so two changes to one entry (a chunk and the base of another) add up instead
   * of the later overwriting the earlier.
   */
  private final class Working {
    final String app;
    private final Map<ChunkId, ChunkRecord> records = new LinkedHashMap<>();
    private final Set<ChunkId> deleted = new java.util.HashSet<>();

    Working(String app) {
      this.app = app;
    }

    ChunkRecord get(ChunkId id) throws IOException {
      if (records.containsKey(id)) {
        return records.get(id);
      }
      byte[] v = store.get(TrackerStore.Family.CHUNKS, CatalogKeys.chunkKey(app, id));
      ChunkRecord r = v == null ? null : ChunkRecord.decode(v);
      records.put(id, r);
      return r;
    }

    /** Reads the entries of {@code ids} not read yet, in one batch of lookups ({@link TrackerStore#getAll}). */
    void readAll(java.util.Collection<ChunkId> ids) throws IOException {
      List<ChunkId> unread = new ArrayList<>(ids.size());
      List<byte[]> keys = new ArrayList<>(ids.size());
      for (ChunkId id : ids) {
        if (!records.containsKey(id)) {
          unread.add(id);
          keys.add(CatalogKeys.chunkKey(app, id));
        }
      }
      List<byte[]> values = store.getAll(TrackerStore.Family.CHUNKS, keys);
      for (int i = 0; i < unread.size(); i++) {
        byte[] v = values.get(i);
        records.put(unread.get(i), v == null ? null : ChunkRecord.decode(v));
      }
    }

    void put(ChunkId id, ChunkRecord r) {
      deleted.remove(id);
      records.put(id, r);
    }

    /** {@code n} fewer references to {@code id}; with none left it leaves the index and releases its base. */
    void release(ChunkId id, int n) throws IOException {
      ChunkRecord c = get(id);
      if (c == null) {
        return;
      }
      if (c.refs() <= n) {
        records.put(id, null);
        deleted.add(id);
        if (c.base() != null) {
          release(c.baseId(), 1);
        }
      } else {
        records.put(id, c.withRefs(c.refs() - n));
      }
    }

    void writeTo(Batch batch) throws IOException {
      for (Map.Entry<ChunkId, ChunkRecord> e : records.entrySet()) {
        byte[] key = CatalogKeys.chunkKey(app, e.getKey());
        if (deleted.contains(e.getKey())) {
          batch.delete(TrackerStore.Family.CHUNKS, key);
        } else if (e.getValue() != null) {
          batch.put(TrackerStore.Family.CHUNKS, key, e.getValue().encode());
        }
      }
    }
  }

  /** The references manifests hold: one per distinct chunk of each. */
  static Map<ChunkId, Integer> references(List<JsonNode> manifests) {
    Map<ChunkId, Integer> counts = new LinkedHashMap<>();
    for (JsonNode mf : manifests) {
      Set<ChunkId> unique = new LinkedHashSet<>();
      for (JsonNode c : mf.path("chunks")) {
        unique.add(ChunkId.parse(c.path("id").asText()));
      }
      for (ChunkId id : unique) {
        counts.merge(id, 1, Integer::sum);
      }
    }
    return counts;
  }

  /** Whether a chunk sent with a commit replaces the held one: it is coded more strongly. */
  private static boolean upgrades(Catalog.NewChunk sent, ChunkRecord held, Manifest m) {
    if (held.redundancy() == null) {
      return true;
    }
    Redundancy s = Redundancy.parse(sent.redundancy() == null ? m.redundancy() : sent.redundancy());
    return !Redundancy.parse(held.redundancy()).protectsAtLeast(s);
  }}
