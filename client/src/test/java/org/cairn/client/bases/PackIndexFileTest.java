package org.cairn.client.bases;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.cairn.core.hash.ChunkId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A base pack's index file: written once the pack is done, read instead of its headers, never trusted for the bytes. */
class PackIndexFileTest {
  /** Above any pid_max: a process that is gone. */
  private static final long GONE = 999_999_999L;

  @TempDir
  Path dir;

  private static byte[] bytes(int seed, int n) {
    return BaseCacheTest.bytes(seed, n);
  }

  private List<Path> files(String suffix) throws Exception {
    try (var files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(suffix)).sorted().collect(Collectors.toList());
    }
  }

  /** {@code chunks} kept by a process that then went away: its pack, renamed as that process's. */
  private Path keptByAGoneProcess(byte[]... chunks) throws Exception {
    BaseCache writer = new BaseCache(dir, 1 << 30);
    for (byte[] c : chunks) {
      writer.put(ChunkId.of(c), c, c.length);
    }
    Path pack = files(BasePacks.PACK_SUFFIX).get(0);
    String[] name = pack.getFileName().toString().split("-");
    return Files.move(pack, dir.resolve(name[0] + "-" + GONE + "-" + name[2]));
  }

  @Test
  void aDonePack_getsAnIndex_readInsteadOfItsHeaders_andADamagedIndexIsRebuiltFromThem() throws Exception {
    byte[] a = bytes(1, 30_000);
    byte[] b = bytes(2, 20_000);
    byte[] c = bytes(3, 10_000);
    Path pack = keptByAGoneProcess(a, b, c);
    Path index = PackIndexFile.of(pack);
    assertThat(index).doesNotExist();
    assertThat(new BaseCache(dir, 1 << 30).get(ChunkId.of(b), null)).isEqualTo(b);
    assertThat(index).as("written by the process that scanned the pack").exists();
    PackIndexFile.Contents kept = PackIndexFile.read(pack, Files.size(pack), BasePacks.MAX_CHUNK);
    assertThat(kept.entries()).extracting(PackIndexFile.Entry::id).containsExactly(ChunkId.of(a), ChunkId.of(b), ChunkId.of(c));
    assertThat(kept.covered()).isEqualTo(Files.size(pack));

    byte[] damaged = Files.readAllBytes(index);
    damaged[20] ^= 1;
    Files.write(index, damaged);
    assertThat(PackIndexFile.read(pack, Files.size(pack), BasePacks.MAX_CHUNK)).as("its CRC32C fails").isNull();
    assertThat(new BaseCache(dir, 1 << 30).get(ChunkId.of(c), null)).as("the headers instead").isEqualTo(c);
    assertThat(PackIndexFile.read(pack, Files.size(pack), BasePacks.MAX_CHUNK)).as("and written again").isEqualTo(kept);

    byte[] file = Files.readAllBytes(pack);
    file[0] ^= 1; // the first record's magic: a scan of the headers stops there, and finds nothing
    Files.write(pack, file);
    BaseCache reader = new BaseCache(dir, 1 << 30);
    assertThat(reader.get(ChunkId.of(b), null)).as("found through the index").isEqualTo(b);
    assertThat(reader.get(ChunkId.of(c), null)).isEqualTo(c);
    assertThat(reader.get(ChunkId.of(a), null)).as("the record itself is still checked").isNull();
  }

  @Test
  void anIndexSaysWhereToLook_neverWhatTheBytesAre() throws Exception {
    byte[] a = bytes(4, 30_000);
    byte[] b = bytes(5, 20_000);
    Path pack = keptByAGoneProcess(a, b);
    assertThat(new BaseCache(dir, 1 << 30).get(ChunkId.of(a), null)).isEqualTo(a);
    PackIndexFile.Contents kept = PackIndexFile.read(pack, Files.size(pack), BasePacks.MAX_CHUNK);
    PackIndexFile.Entry first = kept.entries().get(0);
    // a forged index: b's id at a's place
    PackIndexFile.write(pack, new PackIndexFile.Contents(kept.covered(), kept.ended(),
        List.of(first, new PackIndexFile.Entry(ChunkId.of(b), first.offset(), first.length()))));
    BaseCache reader = new BaseCache(dir, 1 << 30);
    assertThat(reader.get(ChunkId.of(b), null)).as("a's bytes are not b").isNull();
    assertThat(reader.get(ChunkId.of(a), null)).isEqualTo(a);
  }

  @Test
  void anIndexPlacingARecordPast2GiB_leavesItsPackUnindexed_andTheOthersServe() throws Exception {
    byte[] a = bytes(8, 30_000);
    byte[] b = bytes(9, 20_000);
    keptByAGoneProcess(a);
    assertThat(new BaseCache(dir, 1 << 30).get(ChunkId.of(a), null)).isEqualTo(a);
    // not a pack this cache writes: 3 GiB (sparse), its index naming a record at 2.5 GiB
    Path big = dir.resolve("1-" + GONE + "-0" + BasePacks.PACK_SUFFIX);
    try (var ch = java.nio.channels.FileChannel.open(big, java.nio.file.StandardOpenOption.CREATE_NEW,
        java.nio.file.StandardOpenOption.WRITE)) {
      ch.write(java.nio.ByteBuffer.wrap(new byte[] {0}), (3L << 30) - 1);
    }
    PackIndexFile.write(big, new PackIndexFile.Contents(3L << 30, true, List.of(new PackIndexFile.Entry(ChunkId.of(b), 5L << 29, b.length))));
    PackIndex index = new PackIndex(dir, BaseCache.RECORD_KINDS);
    assertThat(index.get(ChunkId.of(b))).as("a miss, not an error").isNull();
    assertThat(index.get(ChunkId.of(a))).as("the other packs still indexed").isNotNull();
    BaseCache reader = new BaseCache(dir, 1 << 30);
    assertThat(reader.get(ChunkId.of(b), null)).isNull();
    assertThat(reader.get(ChunkId.of(a), null)).isEqualTo(a);
    Files.delete(big);
  }

  @Test
  void anIndexOfPartOfAPack_isExtendedByTheHeadersAfterIt() throws Exception {
    byte[] a = bytes(6, 30_000);
    byte[] b = bytes(7, 20_000);
    Path pack = keptByAGoneProcess(a);
    assertThat(new BaseCache(dir, 1 << 30).get(ChunkId.of(a), null)).isEqualTo(a);
    long covered = Files.size(pack);
    Path other = Files.createDirectories(dir.resolve("other"));
    new BaseCache(other, 1 << 30).put(ChunkId.of(b), b, b.length);
    try (var files = Files.list(other)) {
      Files.write(pack, Files.readAllBytes(files.findFirst().orElseThrow()), java.nio.file.StandardOpenOption.APPEND);
    }
    BaseCache reader = new BaseCache(dir, 1 << 30);
    assertThat(reader.get(ChunkId.of(b), null)).isEqualTo(b);
    assertThat(reader.get(ChunkId.of(a), null)).isEqualTo(a);
    PackIndexFile.Contents now = PackIndexFile.read(pack, Files.size(pack), BasePacks.MAX_CHUNK);
    assertThat(now.covered()).isGreaterThan(covered).isEqualTo(Files.size(pack));
    assertThat(now.entries()).hasSize(2);
  }

  @Test
  void aPackItsWriterMayStillAppendTo_getsNoIndex() throws Exception {
    BaseCache writer = new BaseCache(dir, 1 << 30);
    byte[] a = bytes(8, 10_000);
    writer.put(ChunkId.of(a), a, a.length);
    assertThat(new BaseCache(dir, 1 << 30).get(ChunkId.of(a), null)).as("another process of this one's").isEqualTo(a);
    assertThat(files(PackIndexFile.SUFFIX)).as("its writer (this JVM) is alive").isEmpty();
  }

  @Test
  void theTrim_removesAPacksIndexWithIt_andAnIndexWhosePackIsGone() throws Exception {
    byte[] a = bytes(9, 30_000);
    Path pack = keptByAGoneProcess(a);
    assertThat(new BaseCache(dir, 1 << 30).get(ChunkId.of(a), null)).isEqualTo(a);
    Path orphan = dir.resolve("1795829337125-31277-ffd03a96f9a0b274.pack.idx");
    Files.write(orphan, new byte[100]);
    Path unrelated = Files.write(dir.resolve("notes.idx"), new byte[10]);
    new BaseCache(dir, 0).trim();
    assertThat(pack).doesNotExist();
    assertThat(PackIndexFile.of(pack)).doesNotExist();
    assertThat(orphan).doesNotExist();
    assertThat(unrelated).exists();
  }
}
