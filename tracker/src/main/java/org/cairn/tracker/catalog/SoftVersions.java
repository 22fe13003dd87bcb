package org.cairn.tracker.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.api.catalog.CommitRequest.SoftHold;
import org.cairn.core.hash.ChunkId;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.store.Batch;
import org.cairn.tracker.store.TrackerStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Versions written soft (the two-level stable storage scheme): a store with --write soft commits
 * once every piece is in its peers' memory; until each peer reports, in a heartbeat, that it has
 * made the store's soft writes durable (its boot id unchanged, its durable number past the store's),
 * the version's status is soft. A peer that comes back with another boot id crashed before making
 * them durable: its pieces of the store are dropped from the chunk index, so repair makes them again
 * elsewhere, and the hold is released.
 *
 * Keys: SOFT  the version's key (app 0x00 node 0x00 step)  -> Record JSON
 * Called under the Catalog's lock.
 */
public final class SoftVersions {
  private static final Logger LOG = LoggerFactory.getLogger(SoftVersions.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What is still soft of one version: the peers' holds and the chunks the store sent. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Record(List<SoftHold> holds, List<String> chunks) {}

  private final Catalog catalog;
  private final TrackerStore store;
  private final EventLog events;

  SoftVersions(Catalog catalog, TrackerStore store, EventLog events) {
    this.catalog = catalog;
    this.store = store;
    this.events = events;
  }

  /** Puts a version's soft record into {@code batch}, unless nothing it sent is soft. */
  static void hold(Batch batch, byte[] versionKey, List<SoftHold> holds, List<String> chunks) throws IOException {
    if (holds != null && !holds.isEmpty()) {
      batch.put(TrackerStore.Family.SOFT, versionKey, JSON.writeValueAsBytes(new Record(holds, chunks)));
    }
  }

  /** Whether version app/node/step has pieces not yet reported durable. */
  public boolean isSoft(String app, String node, long step) throws IOException {
    return store.get(TrackerStore.Family.SOFT, CatalogKeys.versionKey(app, node, step)) != null;
  }

  /**
   * A peer's heartbeat: its boot id (hex) and the highest soft write it has made durable. Heartbeats
   * are the tracker's hot path: with no soft version naming the peer (the usual case) this is one
   * unlocked scan of a small family; only then is the catalog locked and the records read again.
   */
  public void onHeartbeat(String peer, String boot, long durable) throws IOException {
    if (holdsOn(peer).isEmpty()) {
      return;
    }
    synchronized (catalog) {
      List<byte[]> keys = holdsOn(peer);
      for (byte[] key : keys) {
        byte[] value = store.get(TrackerStore.Family.SOFT, key);
        if (value != null) {
          update(key, JSON.readValue(value, Record.class), peer, boot, durable);
        }
      }
    }
  }

  /** Keys of the soft versions with a hold on {@code peer}. */
  private List<byte[]> holdsOn(String peer) throws IOException {
    List<byte[]> keys = new ArrayList<>();
    store.scan(TrackerStore.Family.SOFT, new byte[0], (key, value) -> {
      if (JSON.readValue(value, Record.class).holds().stream().anyMatch(h -> h.peer().equals(peer))) {
        keys.add(key);
      }
      return true;
    });
    return keys;
  }

  private void update(byte[] key, Record r, String peer, String boot, long durable) throws IOException {
    String[] names = new String(key, 0, key.length - 9, StandardCharsets.UTF_8).split("\u0000", 2);
    long step = java.nio.ByteBuffer.wrap(key, key.length - 8, 8).getLong();
    String version = names[0] + "." + names[1] + "." + step;
    List<SoftHold> left = new ArrayList<>();
    Batch batch = new Batch();
    for (SoftHold h : r.holds()) {
      if (!h.peer().equals(peer)) {
        left.add(h);
      } else if (!h.boot().equals(boot)) {
        int dropped = drop(names[0], r.chunks(), peer, batch);
        LOG.warn("{}: peer {} restarted (boot {} -> {}) before making its soft pieces durable; {} pieces count as lost and are"
            + " repaired", version, peer, h.boot(), boot, dropped);
        events.addFor(names[0], "soft pieces lost", version, peer + " restarted before they were durable: " + dropped + " pieces to repair");
      } else if (durable < h.seq()) {
        left.add(h);
      }
    }
    if (left.size() == r.holds().size()) {
      return;
    }
    if (left.isEmpty()) {
      batch.delete(TrackerStore.Family.SOFT, key);
      LOG.info("{}: every piece written soft is durable", version);
    } else {
      batch.put(TrackerStore.Family.SOFT, key, JSON.writeValueAsBytes(new Record(left, r.chunks())));
    }
    store.write(batch);
  }

  /** Unassigns {@code peer}'s pieces of {@code chunks} (so repair makes them again); returns how many. */
  private int drop(String app, List<String> chunks, String peer, Batch batch) throws IOException {
    int n = 0;
    for (String hex : chunks) {
      ChunkId id = ChunkId.parse(hex);
      ChunkRecord c = catalog.reads().chunk(app, id);
      if (c == null) {
        continue;
      }
      ChunkRecord changed = c;
      for (int i = 0; i < c.holders().size(); i++) {
        if (peer.equals(c.holders().get(i))) {
          changed = changed.withHolder(i, null);
          n++;
        }
      }
      if (changed != c) {
        batch.put(TrackerStore.Family.CHUNKS, CatalogKeys.chunkKey(app, id), changed.encode());
      }
    }
    return n;
  }
}
