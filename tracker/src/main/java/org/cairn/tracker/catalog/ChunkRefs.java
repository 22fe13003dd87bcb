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
  record Tally(long storedBytes, long added) {}

  /**
   * Puts into {@code batch} one more reference to each distinct chunk of {@code m}: to the held
   * entry, or to a new entry made from the chunk the store sent (also when it is coded more strongly
   * than the held one). A chunk neither held nor sent is refused.
   */
  Tally charge(Manifest m, List<Catalog.NewChunk> newChunks, TrackerStore.Batch batch) throws IOException {
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
    for (ChunkId id : unique) {
      byte[] key = Catalog.chunkKey(m.app(), id);
      byte[] existing = store.get(TrackerStore.Family.CHUNKS, key);
      ChunkRecord record;
      ChunkRecord held = existing == null ? null : JSON.readValue(existing, ChunkRecord.class);
      Catalog.NewChunk c = sent.get(id);
      if (held != null && (c == null || !upgrades(c, held, m))) {
        record = held.withRefs(held.refs() + 1);
      } else {
        record = newRecord(m, id, c, held);
        storedBytes += c.storedBytes();
        added++;
      }
      batch.put(TrackerStore.Family.CHUNKS, key, JSON.writeValueAsBytes(record));
    }
    return new Tally(storedBytes, added);
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
        m.clientHost(), new ArrayList<>(c.tags()));
  }

  /**
   * Puts into {@code batch} the release of {@code counts.get(id)} references to each chunk; a chunk
   * left with none leaves the index (its fragments become garbage).
   */
  void release(String app, Map<ChunkId, Integer> counts, TrackerStore.Batch batch) throws IOException {
    for (Map.Entry<ChunkId, Integer> e : counts.entrySet()) {
      byte[] ck = Catalog.chunkKey(app, e.getKey());
      byte[] existing = store.get(TrackerStore.Family.CHUNKS, ck);
      if (existing == null) {
        continue;
      }
      ChunkRecord c = JSON.readValue(existing, ChunkRecord.class);
      if (c.refs() <= e.getValue()) {
        batch.delete(TrackerStore.Family.CHUNKS, ck);
      } else {
        batch.put(TrackerStore.Family.CHUNKS, ck, JSON.writeValueAsBytes(c.withRefs(c.refs() - e.getValue())));
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
