package org.cairn.client.bases;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.cairn.core.hash.ChunkId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the records of a base cache's packs ({@link BasePacks}) are, as far as this process has
 * looked: made when first needed (or ahead, on a thread of its own), from each pack's
 * {@link PackIndexFile} and then its records' headers, and extended on a miss (at most once a second)
 * with what other processes appended. A record whose header is cut short or whose length runs past
 * the pack's end stops the pack's scan there (a writer may be appending it); a header without a
 * record's magic ends it for good.
 */
final class PackIndex {
  private static final Logger LOG = LoggerFactory.getLogger(PackIndex.class);
  /** A record's bytes: in which pack, from where, how many. */
  record Location(Path pack, long offset, int length) {}

  /**
   * The index's first size: a cache at its 4 GiB budget holds ~37,000 records (memory images' chunks code to ~0.1 MB),
   * and growing the table from 16 was a tenth of the index's time in a new JVM.
   */
  private static final int INITIAL_CAPACITY = 1 << 15;
  private final Path dir;
  private final Set<Integer> magics;
  /** Where each indexed chunk's bytes are, by pack number ({@link #byNumber}). */
  private final RecordSlots index = new RecordSlots(INITIAL_CAPACITY);
  /** The packs seen, by number (guarded by itself); a pack forgotten keeps its number. */
  private final List<Path> byNumber = new ArrayList<>();
  private final Map<Path, Integer> numbers = new ConcurrentHashMap<>();
  /** How far each pack has been indexed (a pack another process is writing grows); MAX_VALUE: to its end for good. */
  private final Map<Path, Long> indexed = new ConcurrentHashMap<>();
  private volatile long lastScan = Long.MIN_VALUE;
  /** The first index, made on another thread by {@link #indexAhead} (null if not): lookups wait for it. */
  private volatile CompletableFuture<Void> ahead;

  /** @param magics the record kinds (a header with another magic ends its pack's scan) */
  PackIndex(Path dir, Set<Integer> magics) {
    this.dir = dir;
    this.magics = magics;
  }

  /** Where chunk {@code id}'s record is, looking through the packs first if this process never has; null if unknown. */
  Location get(ChunkId id) {
    CompletableFuture<Void> f = ahead;
    if (f != null) {
      f.join(); // completed whatever the scan met
    }
    if (lastScan == Long.MIN_VALUE) {
      scan();
    }
    return at(id);
  }

  /** Where {@code id}'s record is by the index as it stands (its first 64 bits' slot). */
  private Location at(ChunkId id) {
    RecordSlots.Place p = index.find(id.leading64());
    if (p == null) {
      return null;
    }
    synchronized (byNumber) {
      return new Location(byNumber.get(p.pack()), p.offset(), p.length());
    }
  }

  /** {@code pack}'s number, given it when first seen. */
  private int number(Path pack) {
    return numbers.computeIfAbsent(pack, p -> {
      synchronized (byNumber) {
        byNumber.add(p);
        return byNumber.size() - 1;
      }
    });
  }

  /** As {@link #get}, looking again for what other processes appended if it is unknown (at most once a second). */
  Location find(ChunkId id) {
    Location at = get(id);
    return at == null && scan() ? at(id) : at;
  }

  /** This process appended chunk {@code id}'s record at {@code at}; its pack now ends at {@code packEnd}. */
  void appended(Path pack, long packEnd, ChunkId id, Location at) {
    indexed.put(pack, packEnd);
    index.putIfAbsent(id.leading64(), number(pack), at.offset(), at.length());
  }

  /** The record at {@code at} is not chunk {@code id}'s after all (damaged, unreadable). */
  void remove(ChunkId id, Location at) {
    Integer n = numbers.get(at.pack());
    if (n != null) {
      index.remove(id.leading64(), n, at.offset());
    }
  }

  /** Pack {@code pack} is gone: its records are forgotten. */
  void forget(Path pack) {
    indexed.remove(pack);
    Integer n = numbers.get(pack);
    if (n != null) {
      index.removePack(n);
    }
  }

  /**
   * Indexes the packs on a new daemon thread, then runs {@code after} there; lookups wait for the index
   * (a miss while it is made would be read from the grid).
   */
  Thread indexAhead(Runnable after) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    ahead = done;
    Thread t = new Thread(() -> {
      try {
        scan();
      } finally {
        done.complete(null);
      }
      after.run();
    }, "cairn-base-cache");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** Indexes what the packs hold beyond what was indexed before (at most once a second); true if it looked. */
  private boolean scan() {
    long now = System.nanoTime();
    if (lastScan != Long.MIN_VALUE && now - lastScan < 1_000_000_000L) {
      return false;
    }
    lastScan = now;
    List<Path> packs = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(p -> PackTrim.PACK_NAME.matcher(p.getFileName().toString()).matches()).forEach(packs::add);
    } catch (IOException e) {
      return true;
    }
    int had = index.size();
    for (Path p : packs) {
      scan(p);
    }
    LOG.debug("base cache: {} records indexed in {} packs ({} new) in {} ms", index.size(), packs.size(), index.size() - had,
        (System.nanoTime() - now) / 1_000_000);
    return true;
  }

  /**
   * Indexes pack {@code p} past where this process last looked: first from its index file, then
   * header by header. A pack first seen here, with records found by their headers, gets an index file
   * once it is done (past {@link BasePacks#PACK_BYTES}, or its writer gone).
   */
  private void scan(Path p) {
    Long was = indexed.get(p);
    long pos = was == null ? 0 : was;
    boolean ended = pos == Long.MAX_VALUE;
    List<PackIndexFile.Entry> entries = new ArrayList<>();
    int number = number(p);
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      long size = ch.size();
      PackIndexFile.Raw kept = was == null ? PackIndexFile.readRaw(p, size, BasePacks.MAX_CHUNK) : null;
      if (kept != null) {
        add(number, kept);
        pos = kept.covered();
        ended = kept.ended();
      }
      ByteBuffer head = ByteBuffer.allocate(BasePacks.HEAD);
      while (!ended && pos + BasePacks.HEAD + 4 <= size) {
        head.clear();
        while (head.hasRemaining() && ch.read(head, pos + head.position()) > 0) {
          // reads the header
        }
        int n = head.getInt(4 + ChunkId.LENGTH);
        if (head.hasRemaining() || !magics.contains(head.getInt(0)) || n < 0 || n > BasePacks.MAX_CHUNK) {
          ended = true; // not a record: nothing after it is trusted
        } else if (pos + BasePacks.HEAD + n + 4 > size) {
          break;
        } else {
          entries.add(new PackIndexFile.Entry(ChunkId.fromBytes(head.array(), 4), pos + BasePacks.HEAD, n));
          pos += BasePacks.HEAD + n + 4;
        }
      }
      for (PackIndexFile.Entry e : entries) {
        index.putIfAbsent(e.id().leading64(), number, e.offset(), e.length());
      }
      indexed.put(p, ended ? Long.MAX_VALUE : pos);
      boolean learnt = !entries.isEmpty() || (ended && (kept == null || !kept.ended()));
      if (was == null && learnt && done(p, size)) {
        List<PackIndexFile.Entry> all = new ArrayList<>();
        for (int i = 0; kept != null && i < kept.count(); i++) {
          all.add(kept.entry(i));
        }
        all.addAll(entries);
        PackIndexFile.write(p, new PackIndexFile.Contents(pos, ended, all));
      }
    } catch (IOException | IllegalArgumentException e) {
      // unreadable, or records past 2 GiB (no pack this cache writes grows past 64 MiB and one record): not indexed
      LOG.debug("base cache: {} not indexed: {}", p.getFileName(), e.getMessage());
      forget(p);
    }
  }

  /** Indexes the entries of a pack's index file: no object per entry (the loop a new JVM runs ~37,000 times). */
  private void add(int number, PackIndexFile.Raw kept) {
    for (int i = 0; i < kept.count(); i++) {
      index.putIfAbsent(kept.key(i), number, kept.offset(i), kept.length(i));
    }
  }

  /** Whether nothing more will be appended to pack {@code p}: past its size, or the process named in it is gone. */
  private static boolean done(Path p, long size) {
    if (size >= BasePacks.PACK_BYTES) {
      return true;
    }
    String[] parts = p.getFileName().toString().split("-");
    try {
      return ProcessHandle.of(Long.parseLong(parts[1])).map(h -> !h.isAlive()).orElse(true);
    } catch (RuntimeException e) {
      return false; // not a name this class gave: left as it is
    }
  }
}
