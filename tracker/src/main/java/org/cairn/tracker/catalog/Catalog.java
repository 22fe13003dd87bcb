package org.cairn.tracker.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.cairn.core.CorruptDataException;
import org.cairn.core.api.AppSummary;
import org.cairn.core.api.VersionRow;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.manifest.Manifest;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.store.Batch;
import org.cairn.tracker.store.TrackerStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Versions and chunks (stdchk §IV.A): a version is app/node/step with its manifest; a chunk is
 * indexed per app (dedup is within an app) with the holders of its fragments and a reference count.
 * A commit is atomic (one WriteBatch): the version appears with every reference counted, or nothing
 * does — an interrupted store leaves only unreferenced fragments on peers, which GC removes.
 *
 * Keys: VERSIONS  app 0x00 node 0x00 step (8 bytes, big-endian)  -> VersionRecord JSON
 *       CHUNKS    app 0x00 chunk id (32 bytes)                    -> ChunkRecord (binary, ChunkRecord.encode; JSON before)
 * Names may not contain 0x00; the tracker serialises catalog changes (synchronized).
 */
public final class Catalog {
  private static final Logger LOG = LoggerFactory.getLogger(Catalog.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TrackerStore store;
  private final Clock clock;
  private final EventLog events;
  private final PendingStores pending;
  private final CheckpointSets sets;
  private final SoftVersions soft;
  private final ChunkRefs refs;
  private final HolderIndex holders;

  public Catalog(TrackerStore store, Clock clock) {
    this(store, clock, new EventLog(clock, 100));
  }

  public Catalog(TrackerStore store, Clock clock, EventLog events) {
    this(store, clock, events, java.time.Duration.ZERO);
  }

  /** With GC held for {@code gcHold} after this start (see {@link PendingStores}). */
  public Catalog(TrackerStore store, Clock clock, EventLog events, java.time.Duration gcHold) {
    this.events = events;
    this.store = store;
    this.clock = clock;
    this.pending = new PendingStores(clock, gcHold);
    this.refs = new ChunkRefs(store);
    this.sets = new CheckpointSets(this, store, clock, events);
    this.soft = new SoftVersions(this, store, events);
    this.holders = new HolderIndex(this, store);
  }

  /** Versions written soft whose pieces are not all durable yet. */
  public SoftVersions soft() {
    return soft;
  }

  /** The chunk index's reference counting (what commits charge and deletions release). */
  ChunkRefs refs() {
    return refs;
  }

  /** Checkpoint sets whose parts are not all committed yet. */
  public CheckpointSets sets() {
    return sets;
  }

  /** The chunk index as donors and repair use it: who holds which fragment. */
  /** Changes whenever a version or a chunk record is written (the repair scan skips when it has not). */
  public long changeCount() {
    return store.writes(TrackerStore.Family.VERSIONS) + store.writes(TrackerStore.Family.CHUNKS);
  }

  public HolderIndex holders() {
    return holders;
  }

  /** Stores in flight, whose chunks GC spares until they commit. */
  public PendingStores pending() {
    return pending;
  }

  /** An app's folder policy (stdchk §IV.E): keep-all, replace, or purge-after=DURATION. */
  public String policy(String app) throws IOException {
    checkName("app", app);
    byte[] v = store.get(TrackerStore.Family.POLICIES, app.getBytes(StandardCharsets.UTF_8));
    return v == null ? "keep-all" : new String(v, StandardCharsets.UTF_8);
  }

  public void setPolicy(String app, String folder) throws IOException {
    checkName("app", app);
    String f = folder == null ? "" : folder.trim();
    if (!f.equals("keep-all") && !f.equals("replace") && !f.startsWith("purge-after=")) {
      throw new IllegalArgumentException("folder policy must be keep-all, replace or purge-after=DURATION, was '" + folder + "'");
    }
    if (f.startsWith("purge-after=")) {
      org.cairn.core.config.Durations.parse(f.substring("purge-after=".length()));
    }
    store.put(TrackerStore.Family.POLICIES, app.getBytes(StandardCharsets.UTF_8), f.getBytes(StandardCharsets.UTF_8));
    LOG.info("app {}: folder policy {}", app, f);
  }

  /**
   * Applies purge-after policies: deletes versions committed longer ago than the app's duration,
   * never a node's latest version. Returns how many were deleted.
   */
  public synchronized int purgeExpired() throws IOException {
    Map<String, java.time.Duration> purge = new HashMap<>();
    store.scan(TrackerStore.Family.POLICIES, new byte[0], (key, value) -> {
      String f = new String(value, StandardCharsets.UTF_8);
      if (f.startsWith("purge-after=")) {
        purge.put(new String(key, StandardCharsets.UTF_8), org.cairn.core.config.Durations.parse(f.substring(12)));
      }
      return true;
    });
    int deleted = 0;
    long now = clock.millis();
    for (Map.Entry<String, java.time.Duration> e : purge.entrySet()) {
      String app = e.getKey();
      Map<String, List<long[]>> byNode = new TreeMap<>(); // node -> [step, committedAt]
      store.scan(TrackerStore.Family.VERSIONS, (app + "\u0000").getBytes(StandardCharsets.UTF_8), (key, value) -> {
        String node = new String(key, 0, key.length - 9, StandardCharsets.UTF_8).split("\u0000", 2)[1];
        long step = ByteBuffer.wrap(key, key.length - 8, 8).getLong();
        byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(new long[] {step, JSON.readValue(value, VersionRecord.class).committedAt()});
        return true;
      });
      for (Map.Entry<String, List<long[]>> n : byNode.entrySet()) {
        List<long[]> vs = n.getValue();
        for (int i = 0; i < vs.size() - 1; i++) { // sorted by step; the last (latest) is kept
          if (now - vs.get(i)[1] > e.getValue().toMillis()) {
            delete(app, n.getKey(), vs.get(i)[0], "purge-after");
            deleted++;
          }
        }
      }
    }
    return deleted;
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
   * A chunk's placement, sent with the commit, and its coding (null: the manifest's). A chunk the app
   * already holds with weaker coding is replaced by it (the store re-coded it, so dedup never weakens).
   */
  public record NewChunk(ChunkId id, List<String> holders, long storedBytes, List<String> tags, String redundancy, ChunkId base) {
    public NewChunk(ChunkId id, List<String> holders, long storedBytes, List<String> tags, String redundancy) {
      this(id, holders, storedBytes, tags, redundancy, null);
    }

    public NewChunk(ChunkId id, List<String> holders, long storedBytes, List<String> tags) {
      this(id, holders, storedBytes, tags, null, null);
    }
  }

  /**
   * Commits a version atomically. A step of 0 or less takes the next one after the node's latest.
   *
   * @return the committed step
   * @throws IllegalArgumentException if the manifest refers to chunks neither held nor sent, or the step exists
   */
  public synchronized long commit(JsonNode manifestJson, List<NewChunk> newChunks) throws IOException {
    return commit(manifestJson, newChunks, null);
  }

  /**
   * As {@link #commit(JsonNode, List)}, for a store session: if a version of the same app/node was
   * already committed by this session (the client did not get the answer and tries again), its step
   * is returned and nothing changes.
   */
  public synchronized long commit(JsonNode manifestJson, List<NewChunk> newChunks, String session) throws IOException {
    Manifest m;
    try {
      m = Manifest.fromJson(JSON.writeValueAsString(manifestJson));
    } catch (CorruptDataException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return commit(m, newChunks, session);
  }

  /** As {@link #commit(JsonNode, List, String)}, for a parsed manifest. */
  public synchronized long commit(Manifest m, List<NewChunk> newChunks, String session) throws IOException {
    return commit(m, newChunks, session, null);
  }

  /**
   * As {@link #commit(Manifest, List, String)}, for a store written soft: {@code softHolds} say when
   * each peer's pieces are durable ({@link SoftVersions}); null or empty for a durable store.
   */
  public synchronized long commit(Manifest m, List<NewChunk> newChunks, String session,
      List<org.cairn.core.api.CommitRequest.SoftHold> softHolds) throws IOException {
    try {
      m.requireValid(); // a manifest this build could not read back (a newer client's schema) is refused now, not at fetch
    } catch (CorruptDataException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    checkName("app", m.app());
    checkName("node", m.node());
    if (m.set() != null) {
      return sets.commit(m, newChunks, session, softHolds);
    }
    if (session != null) {
      long done = stepCommittedBy(m.app(), m.node(), session);
      if (done > 0) {
        LOG.info("{}.{}.{} was already committed by store session {}; answering the repeated commit with it", m.app(), m.node(),
            done, session);
        return done;
      }
    }
    long step = m.step() > 0 ? m.step() : latestStep(m.app(), m.node()) + 1;
    byte[] versionKey = versionKey(m.app(), m.node(), step);
    if (store.get(TrackerStore.Family.VERSIONS, versionKey) != null) {
      throw new IllegalArgumentException("version " + m.app() + "." + m.node() + "." + step + " already exists");
    }
    Batch batch = new Batch();
    ChunkRefs.Tally t = refs.charge(m, newChunks, batch);
    long storedBytes = t.storedBytes();
    long added = t.added();
    JsonNode stored = JSON.valueToTree(stepped(m, step));
    VersionRecord committed = new VersionRecord(stored, storedBytes, added, clock.millis(), session);
    batch.put(TrackerStore.Family.VERSIONS, versionKey, JSON.writeValueAsBytes(committed));
    indexSessions(batch, m.app(), m.node(), step, committed);
    SoftVersions.hold(batch, versionKey, softHolds, ChunkRefs.sentIds(newChunks));
    store.write(batch);
    LOG.info("committed {}.{}.{}: {} bytes in {} chunks, {} new ({} bytes stored)", m.app(), m.node(), step, m.size(),
        m.chunks().size(), added, storedBytes);
    events.add("committed", m.app() + "." + m.node() + "." + step, m.size() + " bytes, " + added + " new chunks");
    replaceOlder(m.app(), m.node(), step);
    return step;
  }

  /** The step of app/node's version that store session {@code session} committed (or one of whose parts it did); 0 if none. */
  synchronized long stepCommittedBy(String app, String node, String session) throws IOException {
    byte[] v = store.get(TrackerStore.Family.SESSIONS, sessionKey(app, node, session));
    if (v == null || v.length != 8) {
      return 0;
    }
    long step = ByteBuffer.wrap(v).getLong();
    return store.get(TrackerStore.Family.VERSIONS, versionKey(app, node, step)) == null ? 0 : step;
  }

  /** The key of a store session's commit in the SESSIONS family. */
  static byte[] sessionKey(String app, String node, String session) {
    return (app + "\u0000" + node + "\u0000" + session).getBytes(StandardCharsets.UTF_8);
  }

  /** Puts into {@code batch} that the sessions of version {@code r} committed {@code step} (each part's for a set). */
  static void indexSessions(Batch batch, String app, String node, long step, VersionRecord r) {
    byte[] value = ByteBuffer.allocate(8).putLong(step).array();
    for (String s : r.sessions()) {
      batch.put(TrackerStore.Family.SESSIONS, sessionKey(app, node, s), value);
    }
  }

  /** Under the replace policy, a committed version obsoletes the node's older ones (stdchk's automated replace). */
  void replaceOlder(String app, String node, long step) throws IOException {
    if (!policy(app).equals("replace")) {
      return;
    }
    List<Long> older = new ArrayList<>();
    store.scan(TrackerStore.Family.VERSIONS, prefix(app, node), (key, value) -> {
      long s2 = ByteBuffer.wrap(key, key.length - 8, 8).getLong();
      if (s2 < step) {
        older.add(s2);
      }
      return true;
    });
    for (long s2 : older) {
      delete(app, node, s2, "replaced by step " + step);
    }
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

  /** Deletes a version; chunks no version references any more leave the index (their fragments are garbage). */
  public synchronized boolean delete(String app, String node, long step) throws IOException {
    return delete(app, node, step, "deleted");
  }

  private boolean delete(String app, String node, long step, String why) throws IOException {
    byte[] key = versionKey(app, node, step);
    byte[] value = store.get(TrackerStore.Family.VERSIONS, key);
    if (value == null) {
      return false;
    }
    VersionRecord r = JSON.readValue(value, VersionRecord.class);
    Batch batch = new Batch().delete(TrackerStore.Family.VERSIONS, key)
        .delete(TrackerStore.Family.SOFT, key);
    for (String s : r.sessions()) {
      batch.delete(TrackerStore.Family.SESSIONS, sessionKey(app, node, s));
    }
    Map<ChunkId, Integer> released = ChunkRefs.references(r.manifests());
    if (r.record() != null) {
      released.merge(ChunkId.parse(r.record()), 1, Integer::sum); // its catalog record goes with it
    }
    refs.release(app, released, batch);
    store.write(batch);
    LOG.info("{}.{}.{} {}", app, node, step, why);
    events.add("deleted", app + "." + node + "." + step, why);
    return true;
  }

  /** A committed version and the index entries of its chunks and their bases (null where the index has none). */
  public record VersionEntries(VersionRecord version, Map<ChunkId, ChunkRecord> chunks) {}

  /** App/node/step's version and its chunks' index entries, or null if there is no such version. */
  public synchronized VersionEntries entries(String app, String node, long step) throws IOException {
    byte[] value = store.get(TrackerStore.Family.VERSIONS, versionKey(app, node, step));
    if (value == null) {
      return null;
    }
    VersionRecord r = JSON.readValue(value, VersionRecord.class);
    return new VersionEntries(r, withBases(app, ChunkRefs.references(r.manifests()).keySet()));
  }

  /** The chunk-index entry of one chunk, or null. */
  public ChunkRecord chunk(String app, ChunkId id) throws IOException {
    byte[] v = store.get(TrackerStore.Family.CHUNKS, chunkKey(app, id));
    return v == null ? null : ChunkRecord.decode(v);
  }

  /** A version and the distinct chunks it references. */
  public record VersionChunks(String app, String node, long step, List<ChunkId> chunks) {}

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
  private Map<ChunkId, ChunkRecord> withBases(String app, java.util.Collection<ChunkId> ids) throws IOException {
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

  private static Manifest stepped(Manifest m, long step) {
    return m.withStep(step);
  }

  static void checkName(String what, String name) {
    if (name == null || !name.matches("[A-Za-z0-9._+-]{1,128}")) {
      throw new IllegalArgumentException(what + " must be 1-128 letters, digits, '.', '_', '+' or '-', was '" + name + "'");
    }
  }

  static byte[] prefix(String app, String node) {
    return (app + "\u0000" + node + "\u0000").getBytes(StandardCharsets.UTF_8);
  }

  static byte[] versionKey(String app, String node, long step) {
    byte[] p = prefix(app, node);
    return ByteBuffer.allocate(p.length + 8).put(p).putLong(step).array();
  }

  static byte[] chunkKey(String app, ChunkId id) {
    byte[] a = (app + "\u0000").getBytes(StandardCharsets.UTF_8);
    byte[] out = Arrays.copyOf(a, a.length + ChunkId.LENGTH);
    id.copyTo(out, a.length);
    return out;
  }
}
