package org.cairn.client.bases;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.cairn.core.compress.Compressor;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.pipeline.ChunkCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host's cache of base chunks: what it keeps it gives back intact, a damaged file is a miss, and it stays in its budget. */
class BaseCacheTest {
  @TempDir
  Path dir;

  /** {@code n} seeded random bytes. */
  static byte[] bytes(int seed, int n) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private List<Path> packs(Path in) throws Exception {
    try (var files = Files.list(in)) {
      return files.filter(p -> p.toString().endsWith(BasePacks.PACK_SUFFIX)).sorted().collect(Collectors.toList());
    }
  }

  private static long total(Path in) throws Exception {
    long total = 0;
    try (var files = Files.list(in)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        total += Files.size(p);
      }
    }
    return total;
  }

  @Test
  void keepsAndGivesBack_onlyWhatIsIntact() throws Exception {
    BaseCache cache = new BaseCache(dir, 1 << 20);
    byte[] chunk = bytes(1, 70_000);
    ChunkId id = ChunkId.of(chunk);
    assertThat(cache.get(id, null)).isNull();
    cache.put(id, java.util.Arrays.copyOf(chunk, chunk.length + 100), chunk.length); // a pooled buffer, longer than the chunk
    byte[] other = bytes(2, 5_000);
    cache.put(ChunkId.of(other), other, other.length);
    assertThat(cache.get(id, null)).isEqualTo(chunk);
    assertThat(new BaseCache(dir, 1 << 20).get(id, null)).as("another process finds it").isEqualTo(chunk);

    Path pack = packs(dir).get(0);
    byte[] file = Files.readAllBytes(pack);
    file[1234] ^= 1;
    Files.write(pack, file);
    assertThat(cache.get(id, null)).as("a damaged record is never a base").isNull();
    assertThat(new BaseCache(dir, 1 << 20).get(id, null)).isNull();
    assertThat(new BaseCache(dir, 1 << 20).get(ChunkId.of(other), null)).as("the records after it are intact").isEqualTo(other);
  }

  @Test
  void aChunkKeptAsItsCodedPayload_comesBackAsPlaintext_openedWithItsAppsKeyOnly() throws Exception {
    byte[] chunk = org.cairn.core.image.MemoryImages.image(8, 200_000);
    ChunkCrypto sealed = org.cairn.core.crypto.AppKey.generate("heat", java.time.Instant.parse("2026-01-01T00:00:00Z"))
        .crypto(org.cairn.core.crypto.Encryption.AES_GCM);
    ChunkCrypto other = org.cairn.core.crypto.AppKey.generate("heat", java.time.Instant.parse("2026-01-01T00:00:00Z"))
        .crypto(org.cairn.core.crypto.Encryption.AES_GCM);
    BaseCache cache = new BaseCache(dir, 1 << 20);
    for (ChunkCrypto crypto : new ChunkCrypto[] {ChunkCrypto.PLAIN, sealed}) {
      ChunkCodec codec = new ChunkCodec(Compressor.parse("auto"), Redundancy.parse("code:3+2"), crypto);
      ChunkId id = codec.id(chunk, chunk.length);
      Fragment[] pieces = codec.encode(id, chunk, chunk.length);
      cache.putCoded(id, pieces);
      assertThat(cache.get(id, crypto)).isEqualTo(chunk);
      assertThat(new BaseCache(dir, 1 << 20).get(id, crypto)).as("another process").isEqualTo(chunk);
      if (crypto == sealed) {
        assertThat(new BaseCache(dir, 1 << 20).get(id, other)).as("another key opens nothing").isNull();
        assertThat(new BaseCache(dir, 1 << 20).get(id, ChunkCrypto.PLAIN)).isNull();
      }
    }
    assertThat(total(dir)).as("kept compressed").isLessThan(2L * chunk.length);
  }

  @Test
  void recordsHeldUntilTheStoreAnswers_areFoundMeanwhile_writtenWhenReleased_andDroppedIfItFails() throws Exception {
    ChunkCrypto sealed = org.cairn.core.crypto.AppKey.generate("heat", java.time.Instant.parse("2026-01-01T00:00:00Z"))
        .crypto(org.cairn.core.crypto.Encryption.AES_GCM);
    ChunkCodec codec = new ChunkCodec(Compressor.parse("auto"), Redundancy.parse("code:3+2"), sealed);
    byte[][] chunks = new byte[4][];
    ChunkId[] ids = new ChunkId[4];
    Fragment[][] pieces = new Fragment[4][];
    for (int i = 0; i < 4; i++) {
      chunks[i] = org.cairn.core.image.MemoryImages.image(20 + i, 150_000);
      ids[i] = codec.id(chunks[i], chunks[i].length);
      pieces[i] = codec.encode(ids[i], chunks[i], chunks[i].length);
    }
    long[] size = new long[4]; // a held record: its coded payload and 6 bytes of meta
    for (int i = 0; i < 4; i++) {
      size[i] = org.cairn.core.pipeline.ChunkDecoder.codedPayload(ids[i], pieces[i]).length + 6;
    }
    BaseCache cache = new BaseCache(dir, 1 << 30, size[0] + size[1] + size[2] - 1); // room for the first two, not three
    HeldRecords.Later answered = cache.later();
    cache.putCoded(ids[0], pieces[0], answered);
    cache.putCoded(ids[1], pieces[1], answered);
    cache.putCoded(ids[2], pieces[2], answered); // past the budget: written at once
    assertThat(cache.heldBytes()).as("two held").isEqualTo(size[0] + size[1]);
    assertThat(cache.get(ids[0], sealed)).as("a held record is found").isEqualTo(chunks[0]);
    assertThat(cache.holds(ids[1])).isTrue();
    BaseCache otherProcess = new BaseCache(dir, 1 << 30);
    assertThat(otherProcess.get(ids[0], sealed)).as("not on disk yet").isNull();
    assertThat(otherProcess.get(ids[2], sealed)).as("the one past the budget is").isEqualTo(chunks[2]);

    java.util.List<Runnable> tasks = new java.util.ArrayList<>();
    answered.writeOn(tasks::add);
    assertThat(tasks).hasSize(1);
    assertThat(new BaseCache(dir, 1 << 30).get(ids[1], sealed)).as("written on the executor, not before").isNull();
    tasks.get(0).run();
    assertThat(cache.heldBytes()).isZero();
    assertThat(new BaseCache(dir, 1 << 30).get(ids[0], sealed)).isEqualTo(chunks[0]);
    assertThat(new BaseCache(dir, 1 << 30).get(ids[1], sealed)).isEqualTo(chunks[1]);

    HeldRecords.Later failed = cache.later();
    cache.putCoded(ids[3], pieces[3], failed);
    assertThat(cache.get(ids[3], sealed)).isEqualTo(chunks[3]);
    failed.drop();
    assertThat(cache.heldBytes()).isZero();
    assertThat(cache.get(ids[3], sealed)).as("a failed store's records are forgotten").isNull();
    failed.writeOn(r -> {
      throw new AssertionError("nothing left to write");
    });
  }

  @Test
  void aTornRecord_isAMiss_andWhatAnotherProcessAppendsLater_isFound() throws Exception {
    BaseCache writer = new BaseCache(dir, 1 << 20);
    byte[] a = bytes(4, 30_000);
    writer.put(ChunkId.of(a), a, a.length);
    Path pack = packs(dir).get(0);
    long whole = Files.size(pack);
    byte[] b = bytes(5, 30_000);
    writer.put(ChunkId.of(b), b, b.length);
    byte[] full = Files.readAllBytes(pack);
    Files.write(pack, java.util.Arrays.copyOf(full, (int) whole + 1000)); // b's record cut short (its writer died, or is writing)
    BaseCache reader = new BaseCache(dir, 1 << 20);
    assertThat(reader.get(ChunkId.of(a), null)).isEqualTo(a);
    assertThat(reader.get(ChunkId.of(b), null)).isNull();
    Files.write(pack, full); // the record completed
    BaseCache later = new BaseCache(dir, 1 << 20);
    assertThat(later.get(ChunkId.of(b), null)).isEqualTo(b);
  }

  @Test
  void aPackRemovedUnderItsWriter_isNotWrittenOnUnseen() throws Exception {
    BaseCache cache = new BaseCache(dir, 1 << 20);
    byte[] a = bytes(6, 10_000);
    cache.put(ChunkId.of(a), a, a.length);
    Files.delete(packs(dir).get(0)); // another process's trim, or a user cleaning the cache
    assertThat(cache.get(ChunkId.of(a), null)).isNull();
    byte[] b = bytes(7, 10_000);
    cache.put(ChunkId.of(b), b, b.length);
    assertThat(packs(dir)).hasSize(1);
    assertThat(new BaseCache(dir, 1 << 20).get(ChunkId.of(b), null)).isEqualTo(b);
  }

  @Test
  void aChunkWhosePackWasRemoved_isKeptAgain_withoutBeingReadFirst() throws Exception {
    BaseCache cache = new BaseCache(dir, 1 << 20);
    byte[] a = bytes(8, 10_000);
    cache.put(ChunkId.of(a), a, a.length);
    Files.delete(packs(dir).get(0)); // another process's trim while this one (an agent, say) runs
    cache.put(ChunkId.of(a), a, a.length); // the next store codes it again
    assertThat(cache.get(ChunkId.of(a), null)).isEqualTo(a);
    assertThat(new BaseCache(dir, 1 << 20).get(ChunkId.of(a), null)).as("another process").isEqualTo(a);
  }

  @Test
  void staysWithinItsBudget_droppingTheOldestPacksFirst_andTheEarlierLayoutsFiles() throws Exception {
    Path legacy = dir.resolve(ChunkId.of(bytes(99, 10)).hex());
    Files.write(legacy, new byte[5000]);
    Path unrelated = dir.resolve("notes.txt");
    Files.write(unrelated, new byte[5000]);
    ChunkId[] ids = new ChunkId[6];
    for (int i = 0; i < ids.length; i++) {
      BaseCache process = new BaseCache(dir, Long.MAX_VALUE); // one pack per process
      byte[] c = bytes(10 + i, 100_000);
      ids[i] = ChunkId.of(c);
      process.put(ids[i], c, c.length);
      Path newest = packs(dir).stream().filter(p -> {
        try {
          return Files.getLastModifiedTime(p).toMillis() > 100_000_000L;
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).findFirst().orElseThrow();
      Files.setLastModifiedTime(newest, FileTime.fromMillis(1_000_000L * (i + 1)));
    }
    BaseCache cache = new BaseCache(dir, 310_000);
    cache.trim();
    assertThat(legacy).doesNotExist();
    assertThat(unrelated).as("nothing but packs and the earlier layout's files").exists();
    assertThat(total(dir) - Files.size(unrelated)).isLessThanOrEqualTo(310_000);
    assertThat(cache.get(ids[5], null)).as("the newest stays").isNotNull();
    assertThat(cache.get(ids[0], null)).as("the oldest goes").isNull();
  }

  @Test
  void aProcessThatWritesLittle_stillTrimsACacheOverItsBudget_whenItFirstUsesIt() throws Exception {
    // earlier processes (one-shot stores) left 6 packs of 100 KB; this one, with a 250 KB budget, trims them at its first use
    Path shared = Files.createDirectories(dir.resolve("shared"));
    for (int i = 0; i < 6; i++) {
      byte[] c = bytes(40 + i, 100_000);
      new BaseCache(shared, Long.MAX_VALUE).put(ChunkId.of(c), c, c.length);
    }
    List<Path> written = packs(shared);
    for (int i = 0; i < written.size(); i++) {
      Files.setLastModifiedTime(written.get(i), FileTime.fromMillis(1_000_000L * (i + 1)));
    }
    String where = System.getProperty("cairn.baseCache");
    String budget = System.getProperty("cairn.baseCacheBytes");
    try {
      System.setProperty("cairn.baseCache", shared.toString());
      System.setProperty("cairn.baseCacheBytes", "250000");
      BaseCache cache = BaseCache.standard();
      assertThat(cache.startup).as("an index and a trim started at first use").isNotNull();
      cache.startup.join(10_000);
      assertThat(total(shared)).isLessThanOrEqualTo(250_000);
      assertThat(written.get(5)).as("the newest stays").exists();
      assertThat(BaseCache.standard()).as("one cache per process and directory").isSameAs(cache);
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
      assertThat(moved.get(ChunkId.of(c), null)).isEqualTo(c);
    } finally {
      if (before == null) {
        System.clearProperty("cairn.baseCache");
      } else {
        System.setProperty("cairn.baseCache", before);
      }
    }
  }
}
