package org.cairn.tracker.catalog;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.cairn.core.hash.ChunkId;
import org.cairn.tracker.store.Batch;
import org.cairn.tracker.store.TrackerStore;

/**
 * The catalog's keys in the tracker's store:
 * <pre>
 * VERSIONS  app 0x00 node 0x00 step (8 bytes, big-endian)  -> VersionRecord JSON
 * CHUNKS    app 0x00 chunk id (32 bytes)                    -> ChunkRecord (binary, ChunkRecord.encode; JSON before)
 * SESSIONS  app 0x00 node 0x00 session                      -> the step the store session committed (8 bytes)
 * </pre>
 * Names may not contain 0x00 ({@link #checkName}).
 */
final class CatalogKeys {
  private CatalogKeys() {}

  /** Rejects an app or node name keys cannot hold. */
  static void checkName(String what, String name) {
    if (name == null || !name.matches("[A-Za-z0-9._+-]{1,128}")) {
      throw new IllegalArgumentException(what + " must be 1-128 letters, digits, '.', '_', '+' or '-', was '" + name + "'");
    }
  }

  /** The prefix of app/node's version keys. */
  static byte[] prefix(String app, String node) {
    return (app + "\u0000" + node + "\u0000").getBytes(StandardCharsets.UTF_8);
  }

  /** The VERSIONS key of app/node/step. */
  static byte[] versionKey(String app, String node, long step) {
    byte[] p = prefix(app, node);
    return ByteBuffer.allocate(p.length + 8).put(p).putLong(step).array();
  }

  /** The CHUNKS key of chunk {@code id} in {@code app}'s index. */
  static byte[] chunkKey(String app, ChunkId id) {
    byte[] a = (app + "\u0000").getBytes(StandardCharsets.UTF_8);
    byte[] out = Arrays.copyOf(a, a.length + ChunkId.LENGTH);
    id.copyTo(out, a.length);
    return out;
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
}
