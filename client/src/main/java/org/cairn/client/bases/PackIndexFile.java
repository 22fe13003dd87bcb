package org.cairn.client.bases;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.cairn.core.hash.ChunkId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * A base pack's index, beside it as "<pack>.idx": where the records a scan found in the pack's first
 * `covered` bytes are, so the next process reads one small file per pack instead of one header per
 * record (a cache at its 4 GiB budget held ~10,000 records in ~90 packs: the headers' reads cost a
 * one-command store ~0.3 s before its first base). Written by whoever scanned a pack that is done
 * (past its size, or its writer gone: docs/benchmarks/journal.md), through a temporary file renamed over it:
 *
 *   offset size field
 *    0     4   magic "CRNX"
 *    4     8   covered: the pack's bytes the entries account for (a scan goes on from there)
 *   12     1   1 if the pack ends at `covered` for good (what follows is not a record)
 *   13     4   count n
 *   17  44*n   entries: chunk id (32), offset of the record's bytes (8), their length (4)
 *   ..     4   CRC32C of everything before
 *
 * The entries only say where to look: a read checks the record itself (magic, id, length, CRC32C),
 * so a stale or forged index can cost a miss, never a wrong base. A damaged index is ignored (the
 * pack is scanned instead).
 */
final class PackIndexFile {
  private static final Logger LOG = LoggerFactory.getLogger(PackIndexFile.class);
  static final String SUFFIX = ".idx";
  private static final int MAGIC = 0x43524E58; // "CRNX"
  private static final int HEAD = 4 + 8 + 1 + 4;
  private static final int ENTRY = ChunkId.LENGTH + 8 + 4;

  private PackIndexFile() {}

  /** A record's place: the offset of its bytes in the pack and their length. */
  record Entry(ChunkId id, long offset, int length) {}

  /** What an index holds. */
  record Contents(long covered, boolean ended, List<Entry> entries) {}

  /** The index file of {@code pack}. */
  static Path of(Path pack) {
    return pack.resolveSibling(pack.getFileName() + SUFFIX);
  }

  /**
   * {@code pack}'s index if it is there and whole, and covers no more than the pack's {@code packSize}
   * bytes; null otherwise.
   */
  static Contents read(Path pack, long packSize, int maxChunk) {
    Raw raw = readRaw(pack, packSize, maxChunk);
    if (raw == null) {
      return null;
    }
    List<Entry> entries = new ArrayList<>(raw.count());
    for (int i = 0; i < raw.count(); i++) {
      entries.add(raw.entry(i));
    }
    return new Contents(raw.covered(), raw.ended(), entries);
  }

  /**
   * An index file's bytes, checked (as {@link #read} checks them) but not made into an object per entry: an index of a
   * cache at its budget is ~37,000 entries, read by every one-command store.
   */
  record Raw(byte[] bytes, int count, long covered, boolean ended) {
    /** Entry {@code i}'s chunk id's first 64 bits ({@link ChunkId#leading64}). */
    long key(int i) {
      return getLong(bytes, HEAD + i * ENTRY);
    }

    long offset(int i) {
      return getLong(bytes, HEAD + i * ENTRY + ChunkId.LENGTH);
    }

    int length(int i) {
      return getInt(bytes, HEAD + i * ENTRY + ChunkId.LENGTH + 8);
    }

    Entry entry(int i) {
      return new Entry(ChunkId.fromBytes(bytes, HEAD + i * ENTRY), offset(i), length(i));
    }
  }

  /* Big-endian reads by hand: interpreted (a new JVM's first few thousand entries) they cost a fraction of a VarHandle's
   * or a ByteBuffer's calls. */
  private static long getLong(byte[] b, int at) {
    return (long) getInt(b, at) << 32 | (getInt(b, at + 4) & 0xFFFFFFFFL);
  }

  private static int getInt(byte[] b, int at) {
    return (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | (b[at + 3] & 0xFF);
  }

  /** As {@link #read}, the entries left in the file's bytes. */
  static Raw readRaw(Path pack, long packSize, int maxChunk) {
    byte[] b;
    try {
      b = Files.readAllBytes(of(pack));
    } catch (IOException e) {
      return null; // none yet (or unreadable): the pack is scanned
    }
    if (b.length < HEAD + 4) {
      return null;
    }
    int count = getInt(b, 13);
    if (getInt(b, 0) != MAGIC || count < 0 || (long) b.length != HEAD + (long) ENTRY * count + 4) {
      return null;
    }
    CRC32C crc = new CRC32C();
    crc.update(b, 0, b.length - 4);
    long covered = getLong(b, 4);
    if ((int) crc.getValue() != getInt(b, b.length - 4) || covered < 0 || covered > packSize) {
      return null;
    }
    Raw raw = new Raw(b, count, covered, b[12] == 1);
    for (int i = 0; i < count; i++) {
      long offset = raw.offset(i);
      int length = raw.length(i);
      if (offset < 0 || length < 0 || length > maxChunk || offset + length > covered) {
        return null;
      }
    }
    return raw;
  }

  /** Writes {@code pack}'s index (replacing any); a failure only leaves the pack to be scanned again. */
  static void write(Path pack, Contents contents) {
    List<Entry> entries = contents.entries();
    ByteBuffer out = ByteBuffer.allocate(HEAD + ENTRY * entries.size() + 4);
    out.putInt(MAGIC).putLong(contents.covered()).put((byte) (contents.ended() ? 1 : 0)).putInt(entries.size());
    for (Entry e : entries) {
      e.id().copyTo(out.array(), out.position());
      out.position(out.position() + ChunkId.LENGTH);
      out.putLong(e.offset()).putInt(e.length());
    }
    CRC32C crc = new CRC32C();
    crc.update(out.array(), 0, out.position());
    out.putInt((int) crc.getValue());
    Path target = of(pack);
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp-"
        + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong()));
    try {
      Files.write(tmp, out.array(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | UnsupportedOperationException e) {
      LOG.debug("base cache: no index for {}: {}", pack.getFileName(), e.getMessage());
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException again) {
        LOG.debug("base cache: {} left: {}", tmp.getFileName(), again.getMessage());
      }
    }
  }
}
