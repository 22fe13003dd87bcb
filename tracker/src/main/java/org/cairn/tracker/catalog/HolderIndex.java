package org.cairn.tracker.catalog;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.api.catalog.AssignedPage;
import org.cairn.core.api.status.AppSummary;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.tracker.store.TrackerStore;

/*
 * The chunk index as the donors and repair use it: which fragments a peer should hold (inventory GC,
 * the peer's audit), every entry for the repair planner's scan, and the changes of holders that are
 * not commits (repair's compare-and-set, a peer's bad fragments). Changes take the catalog's lock, as
 * commits and deletions do, so a holder never changes under a commit that reads the same entry.
 */
public final class HolderIndex {
  private final Catalog catalog;
  private final TrackerStore store;
  private volatile InventoryListener listener;

  /** Told of each peer's inventory before it is answered (repair confirms the rebuilt pieces the peer lists). */
  public interface InventoryListener {
    void listed(String peerId, List<byte[]> keys) throws IOException;
  }

  /** From now on {@code l} hears of every inventory, first (one listener: the repair service). */
  public void onInventory(InventoryListener l) {
    this.listener = l;
  }

  HolderIndex(Catalog catalog, TrackerStore store) {
    this.catalog = catalog;
    this.store = store;
  }

  /** Every app's name: a chunk is indexed per app, so a fragment key is looked up under each. */
  private List<String> apps() throws IOException {
    List<String> apps = new ArrayList<>();
    for (AppSummary a : catalog.reads().appSummaries()) {
      apps.add(a.app());
    }
    return apps;
  }

  /**
   * Inventory GC (stdchk §IV.A): which of a peer's fragments no chunk-index entry assigns to it and
   * no store in flight has named ({@link PendingStores}). The listing is first a confirmation: see {@link #onInventory}.
   * Keys are 37-byte fragment keys (chunk id + index + tag).
   */
  public List<byte[]> garbage(String peerId, List<byte[]> keys) throws IOException {
    for (byte[] key : keys) {
      if (key.length != FragmentKey.SIZE) {
        throw new IllegalArgumentException("fragment keys are " + FragmentKey.SIZE + " bytes, got " + key.length);
      }
    }
    InventoryListener l = listener;
    if (l != null) {
      l.listed(peerId, keys); // a rebuilt piece the peer lists enters the index now, so it is not garbage
    }
    List<String> apps = apps();
    List<byte[]> out = new ArrayList<>();
    for (byte[] key : keys) {
      if (key.length != FragmentKey.SIZE) {
        throw new IllegalArgumentException("fragment keys are " + FragmentKey.SIZE + " bytes, got " + key.length);
      }
      FragmentKey fk = FragmentKey.fromBytes(key);
      boolean wanted = catalog.pending().pending(fk.chunkId());
      for (int a = 0; a < apps.size() && !wanted; a++) {
        ChunkRecord r = catalog.reads().chunk(apps.get(a), fk.chunkId());
        wanted = r != null && r.assigns(peerId, fk.index(), fk.tag());
      }
      if (!wanted) {
        out.add(key);
      }
    }
    return out;
  }

  /** One chunk-index entry, as a scan sees it. */
  public interface ChunkVisitor {
    void visit(String app, ChunkId id, ChunkRecord record) throws IOException;
  }

  /** Visits every chunk of every app (the repair planner's scan). */
  public void forEachChunk(ChunkVisitor visitor) throws IOException {
    store.scan(TrackerStore.Family.CHUNKS, new byte[0], (key, value) -> {
      int sep = key.length - ChunkId.LENGTH - 1;
      String app = new String(key, 0, sep, StandardCharsets.UTF_8);
      visitor.visit(app, ChunkId.fromBytes(key, sep + 1), ChunkRecord.decode(value));
      return true;
    });
  }

  /**
   * Repair's commit: fragment {@code index} of the chunk (with the same tag) is now held by {@code peer}, if the entry
   * still names {@code expected} there (compare and set: a chunk deleted or repaired meanwhile is
   * left alone, and the new fragment becomes garbage for GC).
   */
  public boolean reassign(String app, ChunkId id, int index, String expected, String peer) throws IOException {
    synchronized (catalog) {
      ChunkRecord r = catalog.reads().chunk(app, id);
      if (r == null || index < 0 || index >= r.holders().size() || !java.util.Objects.equals(r.holders().get(index), expected)) {
        return false;
      }
      store.put(TrackerStore.Family.CHUNKS, CatalogKeys.chunkKey(app, id), r.withHolder(index, peer).encode());
      return true;
    }
  }

  /**
   * Bad or lost fragments of one peer, as 37-byte fragment keys: every entry (of any app) that says
   * {@code peer} holds that fragment (chunk, index and tag) forgets it, so repair rebuilds it elsewhere.
   * Returns how many entries changed.
   */
  public int dropHolder(String peer, List<byte[]> keys) throws IOException {
    return dropHolder(peer, keys, app -> true);
  }

  /**
   * As {@link #dropHolder(String, List)}, in the entries of the apps {@code apps} accepts only: what a report may change is
   * bounded by whose apps its reporters may speak for, so reports about app A's chunks never change app B's entries even
   * where both apps index the same chunk id.
   */
  public int dropHolder(String peer, List<byte[]> keys, java.util.function.Predicate<String> apps) throws IOException {
    int changed = 0;
    synchronized (catalog) {
      List<String> indexed = apps();
      for (byte[] key : keys) {
        FragmentKey fk = FragmentKey.fromBytes(key);
        for (String app : indexed) {
          if (!apps.test(app)) {
            continue;
          }
          ChunkRecord r = catalog.reads().chunk(app, fk.chunkId());
          if (r != null && r.assigns(peer, fk.index(), fk.tag())) {
            store.put(TrackerStore.Family.CHUNKS, CatalogKeys.chunkKey(app, fk.chunkId()), r.withHolder(fk.index(), null).encode());
            changed++;
          }
        }
      }
    }
    return changed;
  }

  /**
   * A page of the fragments the index assigns to {@code peer} (for the peer's audit of what it should
   * hold): 37-byte fragment keys as hex, and the cursor to continue after (null at the end). Scans
   * the chunk index from {@code cursor}; at most {@code limit} keys, and at most 100,000 entries per call.
   */
  public AssignedPage assigned(String peer, String cursor, int limit) throws IOException {
    List<String> keys = new ArrayList<>();
    String[] next = {null};
    int[] scanned = {0};
    byte[] start = cursor == null || cursor.isEmpty() ? new byte[0] : java.util.HexFormat.of().parseHex(cursor);
    store.scanAfter(TrackerStore.Family.CHUNKS, start, (key, value) -> {
      scanned[0]++;
      ChunkRecord cr = ChunkRecord.decode(value);
      ChunkId id = ChunkId.fromBytes(key, key.length - ChunkId.LENGTH);
      for (int i = 0; i < cr.holders().size(); i++) {
        if (peer.equals(cr.holders().get(i)) && cr.tag(i) != null) {
          keys.add(java.util.HexFormat.of().formatHex(new FragmentKey(id, i, FragmentKey.parseTag(cr.tag(i))).toBytes()));
        }
      }
      if (keys.size() >= limit || scanned[0] >= 100_000) {
        next[0] = java.util.HexFormat.of().formatHex(key);
        return false;
      }
      return true;
    });
    return new AssignedPage(keys, next[0]);
  }
}
