package org.cairn.client.bases;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.cairn.client.keys.PrivateDirs;
import org.cairn.core.hash.ChunkId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pack files behind {@link BaseCache}: records (a magic, a chunk id, a length, bytes, a CRC32C)
 * appended by one writer per pack, a new pack every {@link #PACK_BYTES}; found through a
 * {@link PackIndex}; the oldest packs trimmed first past the budget ({@link PackTrim}).
 */
final class BasePacks {
  private static final Logger LOG = LoggerFactory.getLogger(BasePacks.class);
  /** A writer starts a new pack past this size, so the trim drops the oldest bytes in steps of at most this much. */
  static final long PACK_BYTES = 64L << 20;
  static final String PACK_SUFFIX = ".pack";
  /** A record's bytes before its data: magic, chunk id, length. */
  static final int HEAD = 4 + ChunkId.LENGTH + 4;
  static final int MAX_CHUNK = 256 << 20;

  private final Path dir;
  private final long budget;
  private final Set<Integer> magics;
  private final AtomicLong written = new AtomicLong();
  /** Where each record is, as far as this process has looked. */
  private final PackIndex index;
  /** This process's pack being written, and where its next record goes (guarded by this). */
  private FileChannel pack;
  private Path packPath;
  private long packEnd;

  /** @param magics the record kinds read and written (a record with another magic ends its pack's scan) */
  BasePacks(Path dir, long budget, Set<Integer> magics) {
    this.dir = dir;
    this.budget = budget;
    this.magics = Set.copyOf(magics);
    this.index = new PackIndex(dir, this.magics);
  }

  Path dir() {
    return dir;
  }

  /** A chunk's record: its magic and bytes. */
  record Found(int magic, byte[] data) {}

  /** Chunk {@code id}'s record if an intact one is here (magic, id, length and CRC32C hold); null otherwise. */
  Found read(ChunkId id) {
    PackIndex.Location at = index.find(id);
    if (at == null) {
      return null;
    }
    byte[] data = new byte[at.length()];
    ByteBuffer head = ByteBuffer.allocate(HEAD);
    ByteBuffer crc = ByteBuffer.allocate(4);
    try (FileChannel ch = FileChannel.open(at.pack(), StandardOpenOption.READ)) {
      ch.position(at.offset() - HEAD);
      ByteBuffer[] parts = {head, ByteBuffer.wrap(data), crc};
      long want = HEAD + data.length + 4L;
      for (long got = 0; got < want; ) {
        long n = ch.read(parts);
        if (n < 0) {
          break;
        }
        got += n;
      }
      int magic = head.getInt(0);
      if (!crc.hasRemaining() && magics.contains(magic) && ChunkId.fromBytes(head.array(), 4).equals(id)
          && head.getInt(4 + ChunkId.LENGTH) == data.length) {
        CRC32C c = new CRC32C();
        c.update(head.array(), 0, HEAD);
        c.update(data, 0, data.length);
        if ((int) c.getValue() == crc.getInt(0)) {
          return new Found(magic, data);
        }
      }
      index.remove(id, at); // damaged: never a base
    } catch (NoSuchFileException e) {
      index.forget(at.pack()); // trimmed by another process
    } catch (IOException | RuntimeException e) {
      index.remove(id, at); // a miss
    }
    return null;
  }

  /** Whether a record of chunk {@code id} is here (as far as this process has looked). */
  boolean known(ChunkId id) {
    PackIndex.Location at = index.get(id); // what earlier processes kept is not written again
    if (at != null && !Files.exists(at.pack())) {
      synchronized (this) {
        index.forget(at.pack()); // trimmed by another process, or removed by hand: kept again
      }
      return false;
    }
    return at != null;
  }

  /** Appends a record of chunk {@code id} to this process's pack; failures only cost a later miss. */
  void append(int magic, ChunkId id, ByteBuffer... body) {
    int length = 0;
    for (ByteBuffer b : body) {
      length += b.remaining();
    }
    ByteBuffer head = ByteBuffer.allocate(HEAD).putInt(magic);
    id.copyTo(head.array(), 4);
    head.putInt(4 + ChunkId.LENGTH, length).position(0);
    CRC32C c = new CRC32C();
    c.update(head.array(), 0, HEAD);
    for (ByteBuffer b : body) {
      c.update(b.duplicate());
    }
    ByteBuffer crc = ByteBuffer.allocate(4).putInt(0, (int) c.getValue());
    ByteBuffer[] parts = new ByteBuffer[body.length + 2];
    parts[0] = head;
    System.arraycopy(body, 0, parts, 1, body.length);
    parts[parts.length - 1] = crc;
    synchronized (this) {
      try {
        if (pack != null && !Files.exists(packPath)) {
          index.forget(packPath); // removed under this writer (another process's trim, a user's cleanup): its records are gone
          closePack();
        }
        if (pack == null || packEnd >= PACK_BYTES) {
          startPack();
        }
        long at = packEnd;
        long want = HEAD + length + 4L;
        for (long put = 0; put < want; ) {
          put += pack.write(parts);
        }
        packEnd += want;
        index.appended(packPath, packEnd, id, new PackIndex.Location(packPath, at + HEAD, length));
      } catch (IOException | UnsupportedOperationException e) {
        LOG.debug("base cache: {} not kept: {}", id.shortHex(), e.getMessage());
        closePack(); // the next chunk starts a new pack after whatever this one left
        return;
      }
    }
    if (written.addAndGet(length) > budget / 8) {
      written.set(0);
      trim();
    }
  }

  /** Makes the directory readable by this user only: created 0700, or tightened with a warning. */
  private void ensureDir() throws IOException {
    PrivateDirs.ensure(dir);
  }

  private void startPack() throws IOException {
    closePack();
    ensureDir();
    packPath = dir.resolve(System.currentTimeMillis() + "-" + ProcessHandle.current().pid() + "-"
        + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong()) + PACK_SUFFIX);
    pack = FileChannel.open(packPath, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    packEnd = 0;
  }

  private void closePack() {
    if (pack != null) {
      try {
        pack.close();
      } catch (IOException e) {
        LOG.debug("base cache: closing {}: {}", packPath, e.getMessage());
      }
      pack = null;
    }
  }

  /** See {@link PackIndex#indexAhead}. */
  Thread indexAhead(Runnable after) {
    return index.indexAhead(after);
  }

  /**
   * Removes the oldest packs until the cache is within its budget (never the one this process is
   * writing), with their index files, and every file of the earlier one-file-per-chunk layout.
   */
  synchronized void trim() {
    PackTrim.trim(dir, budget, pack != null ? packPath : null, index::forget);
  }
}
