package org.cairn.tracker.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.cairn.core.CorruptDataException;
import org.cairn.core.hash.ChunkId;
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
 * Keys: CatalogKeys. The tracker serialises catalog changes (synchronized).
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
  /** Commits the repair scan may fold into its last walk (guarded by this catalog's lock). */
  private final CommitJournal journal = new CommitJournal();
  private final HolderIndex holders;
  private final VersionReads reads;
  private final FolderPolicies policies;

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
    this.reads = new VersionReads(store);
    this.sets = new CheckpointSets(this, store, clock, events);
    this.soft = new SoftVersions(this, store, events);
    this.holders = new HolderIndex(this, store);
    this.policies = new FolderPolicies(store);
  }

  /** Reads of versions and chunk-index entries: listings, manifests, lookups. */
  public VersionReads reads() {
    return reads;
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

  /** Changes whenever a version or a chunk record is written (the repair scan skips when it has not). */
  public long changeCount() {
    return store.writes(TrackerStore.Family.VERSIONS) + store.writes(TrackerStore.Family.CHUNKS);
  }

  /**
   * The change count and the commits after {@code seq} that the repair scan may fold into its last
   * walk ({@link CommitJournal}), read together: no commit is between its write and its journal entry.
   */
  public synchronized CommitJournal.Mark changesAfter(long seq) {
    return journal.mark(changeCount(), seq);
  }

  /**
   * With this catalog's lock held, right after {@code batch} is written: it only added app/node's
   * version {@code step} (or changed that version's record) and the chunk records {@code created},
   * new to the index, so the repair scan may fold it into its last walk.
   */
  void journal(String app, String node, long step, List<ChunkId> created, Batch batch) {
    journal.add(app, node, step, created, batch.count(TrackerStore.Family.VERSIONS) + batch.count(TrackerStore.Family.CHUNKS));
  }

  /** The sequence number of the last commit in the journal. */
  public synchronized long commitSeq() {
    return journal.seq();
  }

  /** The chunk index as donors and repair use it: who holds which fragment. */
  public HolderIndex holders() {
    return holders;
  }

  /**
   * Whether a version of an app {@code appCovered} accepts references the chunk: the app's chunk index names it (an
   * entry stays exactly while a committed version, or a part of a checkpoint set, references it), or a store in flight
   * of such an app named it. Who may speak about a chunk (report its pieces bad) is decided by this.
   */
  public boolean referencedByApp(ChunkId id, java.util.function.Predicate<String> appCovered) throws IOException {
    for (String app : reads.indexedApps()) {
      if (appCovered.test(app)) {
        ChunkRecord r = reads.chunk(app, id);
        if (r != null && r.refs() > 0) {
          return true;
        }
      }
    }
    return pending.pendingFor(id, appCovered);
  }

  /** Stores in flight, whose chunks GC spares until they commit. */
  public PendingStores pending() {
    return pending;
  }

  /** An app's folder policy (stdchk §IV.E): keep-all, replace, or purge-after=DURATION. */
  public String policy(String app) throws IOException {
    CatalogKeys.checkName("app", app);
    return policies.get(app);
  }

  public void setPolicy(String app, String folder) throws IOException {
    CatalogKeys.checkName("app", app);
    policies.set(app, folder);
  }

  /**
   * Applies purge-after policies: deletes versions committed longer ago than the app's duration,
   * never a node's latest version. Returns how many were deleted.
   */
  public synchronized int purgeExpired() throws IOException {
    List<FolderPolicies.Expired> expired = policies.expired(clock.millis());
    for (FolderPolicies.Expired v : expired) {
      delete(v.app(), v.node(), v.step(), "purge-after");
    }
    return expired.size();
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
      List<org.cairn.core.api.catalog.CommitRequest.SoftHold> softHolds) throws IOException {
    try {
      m.requireValid(); // a manifest this build could not read back (a newer client's schema) is refused now, not at fetch
    } catch (CorruptDataException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    CatalogKeys.checkName("app", m.app());
    CatalogKeys.checkName("node", m.node());
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
    long step = m.step() > 0 ? m.step() : reads.latestStep(m.app(), m.node()) + 1;
    byte[] versionKey = CatalogKeys.versionKey(m.app(), m.node(), step);
    if (store.get(TrackerStore.Family.VERSIONS, versionKey) != null) {
      throw new IllegalArgumentException("version " + m.app() + "." + m.node() + "." + step + " already exists");
    }
    Batch batch = new Batch();
    long started = System.nanoTime();
    ChunkRefs.Tally t = refs.charge(m, newChunks, batch);
    long charged = System.nanoTime();
    long storedBytes = t.storedBytes();
    long added = t.added();
    JsonNode stored = JSON.valueToTree(stepped(m, step));
    VersionRecord committed = new VersionRecord(stored, storedBytes, added, clock.millis(), session);
    batch.put(TrackerStore.Family.VERSIONS, versionKey, JSON.writeValueAsBytes(committed));
    CatalogKeys.indexSessions(batch, m.app(), m.node(), step, committed);
    SoftVersions.hold(batch, versionKey, softHolds, ChunkRefs.sentIds(newChunks));
    long encoded = System.nanoTime();
    store.write(batch);
    long written = System.nanoTime();
    if (!t.replaced()) {
      journal(m.app(), m.node(), step, t.created(), batch);
    }
    // where its time went (docs/simulation.md, "The catalog at scale"): the chunk index (lookups, new entries), the synced write
    LOG.info("committed {}.{}.{}: {} bytes in {} chunks, {} new ({} bytes stored) in {} ms ({} on the chunk index, {} writing)",
        m.app(), m.node(), step, m.size(), m.chunks().size(), added, storedBytes, millis(written - started), millis(charged - started),
        millis(written - encoded));
    events.addFor(m.app(), "committed", m.app() + "." + m.node() + "." + step, m.size() + " bytes, " + added + " new chunks");
    replaceOlder(m.app(), m.node(), step);
    return step;
  }

  /** The step of app/node's version that store session {@code session} committed (or one of whose parts it did); 0 if none. */
  synchronized long stepCommittedBy(String app, String node, String session) throws IOException {
    byte[] v = store.get(TrackerStore.Family.SESSIONS, CatalogKeys.sessionKey(app, node, session));
    if (v == null || v.length != 8) {
      return 0;
    }
    long step = ByteBuffer.wrap(v).getLong();
    return store.get(TrackerStore.Family.VERSIONS, CatalogKeys.versionKey(app, node, step)) == null ? 0 : step;
  }

  /** Under the replace policy, a committed version obsoletes the node's older ones (stdchk's automated replace). */
  void replaceOlder(String app, String node, long step) throws IOException {
    if (!policy(app).equals("replace")) {
      return;
    }
    List<Long> older = new ArrayList<>();
    store.scan(TrackerStore.Family.VERSIONS, CatalogKeys.prefix(app, node), (key, value) -> {
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

  /** Deletes a version; chunks no version references any more leave the index (their fragments are garbage). */
  public synchronized boolean delete(String app, String node, long step) throws IOException {
    return delete(app, node, step, "deleted");
  }

  private boolean delete(String app, String node, long step, String why) throws IOException {
    byte[] key = CatalogKeys.versionKey(app, node, step);
    byte[] value = store.get(TrackerStore.Family.VERSIONS, key);
    if (value == null) {
      return false;
    }
    VersionRecord r = JSON.readValue(value, VersionRecord.class);
    Batch batch = new Batch().delete(TrackerStore.Family.VERSIONS, key)
        .delete(TrackerStore.Family.SOFT, key);
    for (String s : r.sessions()) {
      batch.delete(TrackerStore.Family.SESSIONS, CatalogKeys.sessionKey(app, node, s));
    }
    Map<ChunkId, Integer> released = ChunkRefs.references(r.manifests());
    if (r.record() != null) {
      released.merge(ChunkId.parse(r.record()), 1, Integer::sum); // its catalog record goes with it
    }
    refs.release(app, released, batch);
    store.write(batch);
    LOG.info("{}.{}.{} {}", app, node, step, why);
    events.addFor(app, "deleted", app + "." + node + "." + step, why);
    return true;
  }

  /** A committed version and the index entries of its chunks and their bases (null where the index has none). */
  public record VersionEntries(VersionRecord version, Map<ChunkId, ChunkRecord> chunks) {}

  /** App/node/step's version and its chunks' index entries, or null if there is no such version. */
  public synchronized VersionEntries entries(String app, String node, long step) throws IOException {
    byte[] value = store.get(TrackerStore.Family.VERSIONS, CatalogKeys.versionKey(app, node, step));
    if (value == null) {
      return null;
    }
    VersionRecord r = JSON.readValue(value, VersionRecord.class);
    return new VersionEntries(r, reads.withBases(app, ChunkRefs.references(r.manifests()).keySet()));
  }

  /** Nanoseconds as milliseconds with one decimal, for the log. */
  private static String millis(long nanos) {
    return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6);
  }

  private static Manifest stepped(Manifest m, long step) {
    return m.withStep(step);
  }
}
