package org.cairn.tracker.catalog;

import static org.cairn.tracker.catalog.CatalogKeys.checkName;
import static org.cairn.tracker.catalog.CatalogKeys.chunkKey;
import static org.cairn.tracker.catalog.CatalogKeys.prefix;
import static org.cairn.tracker.catalog.CatalogKeys.versionKey;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.cairn.core.CorruptDataException;
import org.cairn.core.api.catalog.VersionRow;
import org.cairn.core.api.status.AppSummary;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.manifest.Manifest;
import org.cairn.tracker.store.TrackerStore;

/**
 * The catalog's reads of versions and chunk-index entries (what clients list, locate and look up,
 * what repair and the status page walk); {@link Catalog} makes the changes. Reads take no lock:
 * each is a RocksDB get or a scan over one column family's consistent iterator.
 */
public final class VersionReads {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TrackerStore store;

  VersionReads(TrackerStore store) {
    this.store = store;
  }

  /** Every chunk id held for the app (a client fetches these once per store instead of asking per chunk). */
  public List<String> heldIds(String app) throws IOException {
    checkName("app", app);
    List<String> out = new ArrayList<>();
    byte[] prefix = (app + "\u0000").getBytes(StandardCharsets.UTF_8);
    store.scan(TrackerStore.Family.CHUNKS, prefix, (key, value) -> {
      out.add(ChunkId.fromBytes(key, prefix.length).hex());
      return true;
    });
    return out;
  }

  /** Which of the ids this app already holds (so the client sends only new chunks). */
  public boolean[] lookup(String app, List<ChunkId> ids) throws IOException {
    checkName("app", app);
    boolean[] held = new boolean[ids.size()];
    for (int i = 0; i < held.length; i++) {
      held[i] = store.get(TrackerStore.Family.CHUNKS, chunkKey(app, ids.get(i))) != null;
    }
    return held;
  }

  /**
   * The versions of app/node, oldest first, each with the coding its chunks really have now
   * ({@link #listed}); {@code status} is left null for the caller.
   */
  public List<VersionRow> versions(String app, String node) throws IOException {
    List<VersionRow> out = new ArrayList<>();
    for (Listed l : listed(app, node)) {
      out.add(l.row());
    }
    return out;
  }

  /** A version's row and the chunks it needs (its own, then their bases), from one read of each index entry. */
  public record Listed(VersionRow row, List<ChunkId> chunks) {}

  /**
   * As {@link #versions}, with each version's chunks (for its status). A row's coding is the one its
   * chunks and their bases really have: the one spec when all agree, else "mixed" with the weakest
   * (chunks missing from the index count as weakest of all: "lost").
   */
  public List<Listed> listed(String app, String node) throws IOException {
    checkName("app", app);
    checkName("node", node);
    List<Listed> out = new ArrayList<>();
    List<VersionRecord> records = new ArrayList<>();
    store.scan(TrackerStore.Family.VERSIONS, prefix(app, node), (key, value) -> {
      records.add(JSON.readValue(value, VersionRecord.class));
      return true;
    });
    for (VersionRecord r : records) {
      JsonNode mf = r.manifest();
      long size = 0;
      int chunks = 0;
      for (JsonNode part : r.manifests()) {
        size += part.path("size").asLong();
        chunks += part.path("chunks").size();
      }
      Map<ChunkId, ChunkRecord> needed = withBases(app, ChunkRefs.references(r.manifests()).keySet());
      List<String> specs = new ArrayList<>(needed.size());
      for (ChunkRecord c : needed.values()) {
        specs.add(c == null ? null : c.redundancy());
      }
      org.cairn.core.erasure.CodingSummary coding = org.cairn.core.erasure.CodingSummary.of(specs);
      JsonNode set = mf.path("set");
      out.add(new Listed(new VersionRow(app, node, mf.path("step").asLong(), size, r.storedBytes(), chunks,
          r.newChunks(), coding.coding() == null ? mf.path("redundancy").asText() : coding.coding(), coding.weakest(),
          mf.path("redundancy").asText(), mf.path("kind").asText("file"), mf.path("createdAt").asLong(), r.committedAt(), null,
          set.isObject() ? set.path("name").asText() : null, r.parts() == null ? null : r.parts().size(), r.record() != null),
          new ArrayList<>(needed.keySet())));
    }
    return out;
  }

  /**
   * A version's manifest and the index entry of each distinct chunk it references (null where the
   * index has none), then of each base those chunks are coded against.
   */
  public record Located(Manifest manifest, Map<ChunkId, ChunkRecord> chunks) {}

  /** The manifest of a version (latest when step <= 0) with its chunks' index entries; null if no such version. */
  public Located manifest(String app, String node, long step) throws IOException {
    return manifest(app, node, step, -1);
  }

  /**
   * As {@link #manifest(String, String, long)}, for part {@code part} of a checkpoint set's version
   * (-1: the version is not a set). Asking a set without a part, or a plain version for a part, is
   * refused naming what to ask instead.
   */
  public Located manifest(String app, String node, long step, int part) throws IOException {
    checkName("app", app);
    checkName("node", node);
    long s = step > 0 ? step : latestStep(app, node);
    if (s <= 0) {
      return null;
    }
    byte[] value = store.get(TrackerStore.Family.VERSIONS, versionKey(app, node, s));
    if (value == null) {
      return null;
    }
    VersionRecord r = JSON.readValue(value, VersionRecord.class);
    JsonNode mf;
    if (r.parts() == null) {
      if (part > 0) {
        throw new IllegalArgumentException(app + "." + node + "." + s + " is not a checkpoint set; it has no part " + part);
      }
      mf = r.manifest();
    } else if (part < 0) {
      throw new IllegalArgumentException(app + "." + node + "." + s + " is a checkpoint set of " + r.parts().size()
          + " parts: choose one with part=0.." + (r.parts().size() - 1));
    } else if (part >= r.parts().size()) {
      throw new IllegalArgumentException(app + "." + node + "." + s + " has parts 0.." + (r.parts().size() - 1) + ", not " + part);
    } else {
      mf = r.parts().get(part).manifest();
    }
    Manifest m;
    try {
      m = Manifest.fromJson(JSON.writeValueAsString(mf));
    } catch (CorruptDataException e) {
      throw new IOException("stored manifest of " + app + "." + node + "." + s + " does not parse: " + e.getMessage(), e);
    }
    java.util.Set<ChunkId> ids = new java.util.LinkedHashSet<>();
    for (ChunkRef ref : m.chunks()) {
      ids.add(ref.id());
    }
    return new Located(m, withBases(app, ids));
  }

  /** Apps, each with its nodes and their version counts. */
  public List<AppSummary> appSummaries() throws IOException {
    Map<String, Map<String, Integer>> apps = new TreeMap<>();
    store.scan(TrackerStore.Family.VERSIONS, new byte[0], (key, value) -> {
      String[] parts = new String(key, 0, key.length - 9, StandardCharsets.UTF_8).split("\u0000", 2);
      apps.computeIfAbsent(parts[0], a -> new TreeMap<>()).merge(parts[1], 1, Integer::sum);
      return true;
    });
    List<AppSummary> out = new ArrayList<>();
    for (Map.Entry<String, Map<String, Integer>> e : apps.entrySet()) {
      out.add(new AppSummary(e.getKey(), e.getValue()));
    }
    return out;
  }

  /**
   * The names of the apps the chunk index has entries of, in order: one seek per app (not a walk of every version,
   * as {@link #appSummaries} takes), so a check per request stays cheap.
   */
  public List<String> indexedApps() throws IOException {
    List<String> out = new ArrayList<>();
    byte[][] after = {new byte[0]};
    boolean[] more = {true};
    while (more[0]) {
      more[0] = false;
      store.scanAfter(TrackerStore.Family.CHUNKS, after[0], (key, value) -> {
        int sep = 0;
        while (sep < key.length && key[sep] != 0) {
          sep++;
        }
        out.add(new String(key, 0, sep, StandardCharsets.UTF_8));
        // past every key of this app: names hold no byte below '+', and its keys continue with 0x00
        after[0] = java.util.Arrays.copyOf(key, sep + 1);
        after[0][sep] = 1;
        more[0] = true;
        return false;
      });
    }
    return out;
  }

  /** Chunk ids the app holds coded at least as strongly as {@code atLeast} (all when null). */
  public List<String> heldIds(String app, Redundancy atLeast) throws IOException {
    if (atLeast == null) {
      return heldIds(app);
    }
    checkName("app", app);
    List<String> out = new ArrayList<>();
    byte[] prefix = (app + "\u0000").getBytes(StandardCharsets.UTF_8);
    store.scan(TrackerStore.Family.CHUNKS, prefix, (key, value) -> {
      ChunkRecord r = ChunkRecord.decode(value);
      if (r.redundancy() != null && Redundancy.parse(r.redundancy()).protectsAtLeast(atLeast)) {
        out.add(ChunkId.fromBytes(key, prefix.length).hex());
      }
      return true;
    });
    return out;
  }

  /** The chunk-index entry of one chunk, or null. */
  public ChunkRecord chunk(String app, ChunkId id) throws IOException {
    byte[] v = store.get(TrackerStore.Family.CHUNKS, chunkKey(app, id));
    return v == null ? null : ChunkRecord.decode(v);
  }

  /** A version and the distinct chunks it references. */
  public record VersionChunks(String app, String node, long step, List<ChunkId> chunks) {}

  /** App/node's version {@code step} with its chunks (as {@link #latestVersions} gives them), or null if there is none. */
  public VersionChunks versionChunks(String app, String node, long step) throws IOException {
    byte[] value = store.get(TrackerStore.Family.VERSIONS, versionKey(app, node, step));
    return value == null ? null : new VersionChunks(app, node, step, chunkIds(app, JSON.readValue(value, VersionRecord.class)));
  }

  /** The latest version of every app/node, with its chunks. */
  public List<VersionChunks> latestVersions() throws IOException {
    Map<String, byte[]> latest = new TreeMap<>(); // "app\0node" -> record of the highest step (keys sort by step)
    Map<String, Long> steps = new HashMap<>();
    store.scan(TrackerStore.Family.VERSIONS, new byte[0], (key, value) -> {
      String an = new String(key, 0, key.length - 9, StandardCharsets.UTF_8);
      latest.put(an, value);
      steps.put(an, ByteBuffer.wrap(key, key.length - 8, 8).getLong());
      return true;
    });
    List<VersionChunks> out = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : latest.entrySet()) {
      String[] parts = e.getKey().split("\u0000", 2);
      out.add(new VersionChunks(parts[0], parts[1], steps.get(e.getKey()),
          chunkIds(parts[0], JSON.readValue(e.getValue(), VersionRecord.class))));
    }
    return out;
  }

  /** The distinct chunks a version references, then the bases they are coded against (a read needs both). */
  private List<ChunkId> chunkIds(String app, VersionRecord r) throws IOException {
    return new ArrayList<>(withBases(app, ChunkRefs.references(r.manifests()).keySet()).keySet());
  }

  /**
   * The index entries of {@code ids} (null where the index has none), then of the bases those chunks
   * are coded against, each read once.
   */
  Map<ChunkId, ChunkRecord> withBases(String app, java.util.Collection<ChunkId> ids) throws IOException {
    Map<ChunkId, ChunkRecord> out = new LinkedHashMap<>();
    for (ChunkId id : ids) {
      out.put(id, chunk(app, id));
    }
    for (ChunkRecord c : new ArrayList<>(out.values())) {
      if (c != null && c.base() != null && !out.containsKey(c.baseId())) {
        out.put(c.baseId(), chunk(app, c.baseId()));
      }
    }
    return out;
  }

  /** The node's greatest step (0 if it has none): steps are positive and big-endian in the key, so one seek finds it. */
  long latestStep(String app, String node) throws IOException {
    byte[] prefix = prefix(app, node);
    byte[] key = store.lastKey(TrackerStore.Family.VERSIONS, prefix, 8);
    return key == null || key.length != prefix.length + 8 ? 0 : Math.max(0, ByteBuffer.wrap(key, prefix.length, 8).getLong());
  }
}
