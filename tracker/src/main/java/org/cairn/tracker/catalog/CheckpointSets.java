package org.cairn.tracker.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.cairn.core.manifest.Manifest;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.store.Batch;
import org.cairn.tracker.store.TrackerStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Checkpoint sets (DejaVu's epoch-coordinated checkpoints): the parts of one checkpoint written on
 * several hosts commit one by one, each holding references to its chunks so GC spares them, but the
 * set becomes a version only when its last part commits, in the same batch: nobody can fetch a set
 * with a part missing. A set left incomplete past the timeout releases its parts' references.
 *
 * Keys: SETS  app 0x00 node 0x00 set 0x00 part (4 bytes, big-endian)  -> VersionRecord.PartRecord JSON
 * Called under the Catalog's lock.
 */
public final class CheckpointSets {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointSets.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Catalog catalog;
  private final TrackerStore store;
  private final Clock clock;
  private final EventLog events;

  CheckpointSets(Catalog catalog, TrackerStore store, Clock clock, EventLog events) {
    this.catalog = catalog;
    this.store = store;
    this.clock = clock;
    this.events = events;
  }

  /** A pending set's progress: parts committed of parts declared. */
  public record Progress(String set, int committed, int parts) {}

  /**
   * Commits one part of a set. Returns the step of the set's version when this part completed it
   * (or when this session already did), else 0: the part is held until the others commit.
   */
  long commit(Manifest m, List<Catalog.NewChunk> newChunks, String session, List<org.cairn.core.api.catalog.CommitRequest.SoftHold> soft)
      throws IOException {
    Manifest.SetPart sp = m.set();
    CatalogKeys.checkName("set", sp.name());
    String where = "set " + sp.name() + " of " + m.app() + "." + m.node();
    long complete = completedStep(m.app(), m.node(), sp.name());
    if (complete > 0) {
      if (session != null && complete == catalog.stepCommittedBy(m.app(), m.node(), session)) {
        return complete;
      }
      throw new IllegalArgumentException(where + " is already complete as step " + complete
          + "; a new checkpoint of the computation needs a new set name");
    }
    TreeMap<Integer, VersionRecord.PartRecord> held = parts(m.app(), m.node(), sp.name());
    for (Map.Entry<Integer, VersionRecord.PartRecord> e : held.entrySet()) {
      int declared = e.getValue().manifest().path("set").path("parts").asInt();
      if (declared != sp.parts()) {
        throw new IllegalArgumentException(where + " has " + declared + " parts (part " + e.getKey() + " said so), not " + sp.parts());
      }
    }
    VersionRecord.PartRecord mine = held.get(sp.part());
    if (mine != null) {
      if (session != null && session.equals(mine.session())) {
        return 0; // a repeated commit of this part
      }
      throw new IllegalArgumentException("part " + sp.part() + " of " + where + " is already committed by another store");
    }
    Batch batch = new Batch();
    ChunkRefs.Tally t = catalog.refs().charge(m, newChunks, batch);
    boolean isSoft = soft != null && !soft.isEmpty();
    held.put(sp.part(), new VersionRecord.PartRecord(JSON.valueToTree(m), t.storedBytes(), t.added(), clock.millis(), session,
        isSoft ? soft : null, isSoft ? ChunkRefs.sentIds(newChunks) : null));
    if (held.size() < sp.parts()) {
      batch.put(TrackerStore.Family.SETS, partKey(m.app(), m.node(), sp.name(), sp.part()), JSON.writeValueAsBytes(held.get(sp.part())));
      store.write(batch);
      LOG.info("{}: part {} committed ({} of {}), {} new chunks", where, sp.part(), held.size(), sp.parts(), t.added());
      return 0;
    }
    long step = catalog.reads().latestStep(m.app(), m.node()) + 1;
    List<VersionRecord.PartRecord> parts = new ArrayList<>();
    long storedBytes = 0;
    long added = 0;
    List<org.cairn.core.api.catalog.CommitRequest.SoftHold> softHolds = new ArrayList<>();
    List<String> softChunks = new ArrayList<>();
    for (Map.Entry<Integer, VersionRecord.PartRecord> e : held.entrySet()) {
      VersionRecord.PartRecord p = e.getValue();
      if (p.soft() != null) {
        softHolds.addAll(p.soft());
        softChunks.addAll(p.sent());
      }
      parts.add(new VersionRecord.PartRecord(stepped(p.manifest(), step), p.storedBytes(), p.newChunks(), p.committedAt(), p.session()));
      storedBytes += p.storedBytes();
      added += p.newChunks();
      batch.delete(TrackerStore.Family.SETS, partKey(m.app(), m.node(), sp.name(), e.getKey()));
    }
    byte[] versionKey = CatalogKeys.versionKey(m.app(), m.node(), step);
    VersionRecord version = new VersionRecord(parts.get(0).manifest(), storedBytes, added, clock.millis(), null, parts);
    batch.put(TrackerStore.Family.VERSIONS, versionKey, JSON.writeValueAsBytes(version));
    CatalogKeys.indexSessions(batch, m.app(), m.node(), step, version);
    SoftVersions.hold(batch, versionKey, softHolds, softChunks);
    store.write(batch);
    LOG.info("{}: all {} parts committed as step {}", where, sp.parts(), step);
    events.addFor(m.app(), "committed", m.app() + "." + m.node() + "." + step, "set " + sp.name() + " of " + sp.parts() + " parts");
    catalog.replaceOlder(m.app(), m.node(), step);
    return step;
  }

  private static JsonNode stepped(JsonNode manifest, long step) throws IOException {
    try {
      return JSON.valueToTree(Manifest.fromJson(JSON.writeValueAsString(manifest)).withStep(step));
    } catch (org.cairn.core.CorruptDataException e) {
      throw new IOException("a held part's manifest does not parse: " + e.getMessage(), e);
    }
  }

  /** How far set {@code name} of app/node is: parts committed and declared (0 of 0 if none is). */
  public Progress progress(String app, String node, String name) throws IOException {
    TreeMap<Integer, VersionRecord.PartRecord> held = parts(app, node, name);
    int declared = held.isEmpty() ? 0 : held.firstEntry().getValue().manifest().path("set").path("parts").asInt();
    return new Progress(name, held.size(), declared);
  }

  /** The sets of app/node still waiting for parts, by name. */
  public List<org.cairn.core.api.catalog.SetProgress> pending(String app, String node) throws IOException {
    CatalogKeys.checkName("app", app);
    CatalogKeys.checkName("node", node);
    Map<String, int[]> counts = new TreeMap<>();
    Map<String, Long> first = new TreeMap<>();
    store.scan(TrackerStore.Family.SETS, CatalogKeys.prefix(app, node), (key, value) -> {
      byte[] p = CatalogKeys.prefix(app, node);
      String name = new String(key, p.length, key.length - p.length - 5, StandardCharsets.UTF_8);
      VersionRecord.PartRecord r = JSON.readValue(value, VersionRecord.PartRecord.class);
      int[] c = counts.computeIfAbsent(name, n -> new int[2]);
      c[0]++;
      c[1] = r.manifest().path("set").path("parts").asInt();
      first.merge(name, r.committedAt(), Math::min);
      return true;
    });
    List<org.cairn.core.api.catalog.SetProgress> out = new ArrayList<>();
    counts.forEach((name, c) -> out.add(new org.cairn.core.api.catalog.SetProgress(name, c[0], c[1], first.get(name))));
    return out;
  }

  /**
   * Drops the sets whose first part committed longer than {@code timeout} ago and are still
   * incomplete, releasing their parts' chunk references. Returns how many sets were dropped.
   */
  public int expire(Duration timeout) throws IOException {
    synchronized (catalog) {
      Map<String, List<byte[]>> keys = new TreeMap<>();
      Map<String, List<JsonNode>> manifests = new TreeMap<>();
      Map<String, Long> oldest = new TreeMap<>();
      store.scan(TrackerStore.Family.SETS, new byte[0], (key, value) -> {
        String set = new String(key, 0, key.length - 5, StandardCharsets.UTF_8);
        VersionRecord.PartRecord p = JSON.readValue(value, VersionRecord.PartRecord.class);
        keys.computeIfAbsent(set, s -> new ArrayList<>()).add(key);
        manifests.computeIfAbsent(set, s -> new ArrayList<>()).add(p.manifest());
        oldest.merge(set, p.committedAt(), Math::min);
        return true;
      });
      int dropped = 0;
      long now = clock.millis();
      for (Map.Entry<String, Long> e : oldest.entrySet()) {
        if (now - e.getValue() <= timeout.toMillis()) {
          continue;
        }
        String[] names = e.getKey().split("\u0000", 3);
        Batch batch = new Batch();
        for (byte[] k : keys.get(e.getKey())) {
          batch.delete(TrackerStore.Family.SETS, k);
        }
        catalog.refs().release(names[0], ChunkRefs.references(manifests.get(e.getKey())), batch);
        store.write(batch);
        int parts = manifests.get(e.getKey()).get(0).path("set").path("parts").asInt();
        String what = "set " + names[2] + " of " + names[0] + "." + names[1];
        LOG.warn("{}: dropped incomplete after {} ({} of {} parts committed); its chunks are garbage unless other versions hold them",
            what, timeout, keys.get(e.getKey()).size(), parts);
        events.addFor(names[0], "set expired", names[0] + "." + names[1], what + ": " + keys.get(e.getKey()).size() + " of " + parts + " parts");
        dropped++;
      }
      return dropped;
    }
  }

  private TreeMap<Integer, VersionRecord.PartRecord> parts(String app, String node, String name) throws IOException {
    TreeMap<Integer, VersionRecord.PartRecord> out = new TreeMap<>();
    store.scan(TrackerStore.Family.SETS, setPrefix(app, node, name), (key, value) -> {
      out.put(ByteBuffer.wrap(key, key.length - 4, 4).getInt(), JSON.readValue(value, VersionRecord.PartRecord.class));
      return true;
    });
    return out;
  }

  /** The step of app/node's version that is set {@code name}; 0 if none. */
  private long completedStep(String app, String node, String name) throws IOException {
    long[] found = {0};
    store.scan(TrackerStore.Family.VERSIONS, CatalogKeys.prefix(app, node), (key, value) -> {
      if (name.equals(JSON.readTree(value).path("manifest").path("set").path("name").asText(null))) {
        found[0] = ByteBuffer.wrap(key, key.length - 8, 8).getLong();
        return false;
      }
      return true;
    });
    return found[0];
  }

  private static byte[] setPrefix(String app, String node, String name) {
    return (app + "\u0000" + node + "\u0000" + name + "\u0000").getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] partKey(String app, String node, String name, int part) {
    byte[] p = setPrefix(app, node, name);
    return ByteBuffer.allocate(p.length + 4).put(p).putInt(part).array();
  }
}
