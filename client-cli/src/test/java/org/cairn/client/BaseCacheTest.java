package org.cairn.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Random;
import org.cairn.core.hash.ChunkId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host's cache of base chunks: what it keeps it gives back intact, a damaged file is a miss, and it stays in its budget. */
class BaseCacheTest {
  @TempDir
  Path dir;

  private static byte[] bytes(int seed, int n) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void keepsAndGivesBack_onlyWhatIsIntact() throws Exception {
    BaseCache cache = new BaseCache(dir, 1 << 20);
    byte[] chunk = bytes(1, 70_000);
    ChunkId id = ChunkId.of(chunk);
    assertThat(cache.get(id)).isNull();
    cache.put(id, java.util.Arrays.copyOf(chunk, chunk.length + 100), chunk.length); // a pooled buffer, longer than the chunk
    assertThat(cache.get(id)).isEqualTo(chunk);

    Path f = dir.resolve(id.hex());
    byte[] file = Files.readAllBytes(f);
    file[1234] ^= 1;
    Files.write(f, file);
    assertThat(cache.get(id)).as("a damaged file is never a base").isNull();
    assertThat(f).doesNotExist();
    Files.write(f, new byte[] {1, 2});
    assertThat(cache.get(id)).isNull();
  }

  @Test
  void staysWithinItsBudget_droppingTheOldestFirst() throws Exception {
    BaseCache cache = new BaseCache(dir, 300_000);
    ChunkId[] ids = new ChunkId[6];
    for (int i = 0; i < ids.length; i++) {
      byte[] c = bytes(10 + i, 100_000);
      ids[i] = ChunkId.of(c);
      cache.put(ids[i], c, c.length);
      Files.setLastModifiedTime(dir.resolve(ids[i].hex()), FileTime.fromMillis(1_000_000L * (i + 1)));
    }
    cache.trim();
    long total = 0;
    try (var files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        total += Files.size(p);
      }
    }
    assertThat(total).isLessThanOrEqualTo(300_000);
    assertThat(cache.get(ids[5])).as("the newest stays").isNotNull();
    assertThat(cache.get(ids[0])).as("the oldest goes").isNull();
  }

  @Test
  void aProcessThatWritesLittle_stillTrimsACacheOverItsBudget_whenItFirstUsesIt() throws Exception {
    // earlier processes (one-shot stores) left 6 x 100 KB; this one, with a 250 KB budget, trims them at its first use
    Path shared = Files.createDirectories(dir.resolve("shared"));
    for (int i = 0; i < 6; i++) {
      byte[] c = bytes(40 + i, 100_000);
      new BaseCache(shared, Long.MAX_VALUE).put(ChunkId.of(c), c, c.length);
      Files.setLastModifiedTime(shared.resolve(ChunkId.of(c).hex()), FileTime.fromMillis(1_000_000L * (i + 1)));
    }
    String where = System.getProperty("cairn.baseCache");
    String budget = System.getProperty("cairn.baseCacheBytes");
    try {
      System.setProperty("cairn.baseCache", shared.toString());
      System.setProperty("cairn.baseCacheBytes", "250000");
      BaseCache cache = BaseCache.standard();
      assertThat(cache.startupTrim).as("a trim started at first use").isNotNull();
      cache.startupTrim.join(10_000);
      long total = 0;
      try (var files = Files.list(shared)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          total += Files.size(f);
        }
      }
      assertThat(total).isLessThanOrEqualTo(250_000);
      assertThat(shared.resolve(ChunkId.of(bytes(45, 100_000)).hex())).as("the newest stays").exists();
      assertThat(BaseCache.standard().startupTrim).as("once per process and directory").isNull();
    } finally {
      restore("cairn.baseCache", where);
      restore("cairn.baseCacheBytes", budget);
    }
  }

  private static void restore(String key, String value) {
    if (value == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, value);
    }
  }

  @Test
  void standard_canBeTurnedOff_orMoved() throws Exception {
    String before = System.getProperty("cairn.baseCache");
    try {
      System.setProperty("cairn.baseCache", "off");
      assertThat(BaseCache.standard()).isNull();
      System.setProperty("cairn.baseCache", dir.resolve("moved").toString());
      BaseCache moved = BaseCache.standard();
      assertThat(dir.resolve("moved")).as("made only when a chunk is kept").doesNotExist();
      byte[] c = bytes(3, 1000);
      moved.put(ChunkId.of(c), c, c.length);
      assertThat(dir.resolve("moved")).isDirectory();
      assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("moved"))))
          .isEqualTo("rwx------");
      assertThat(moved.get(ChunkId.of(c))).isEqualTo(c);
    } finally {
      if (before == null) {
        System.clearProperty("cairn.baseCache");
      } else {
        System.setProperty("cairn.baseCache", before);
      }
    }
  }
}
