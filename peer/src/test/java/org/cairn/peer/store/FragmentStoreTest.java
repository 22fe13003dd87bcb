package org.cairn.peer.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.cairn.core.CorruptDataException;
import org.cairn.core.compress.Compressor;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.protocol.FragmentKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDB;

public class FragmentStoreTest {
  @TempDir
  Path dir;

  public static List<byte[]> fragmentsOf(long seed, int size) {
    byte[] chunk = new byte[size];
    new Random(seed).nextBytes(chunk);
    Fragment[] fs = new ChunkCodec(Compressor.parse("none"), Redundancy.parse("code:3+2")).encode(ChunkId.of(chunk), chunk, size);
    List<byte[]> out = new ArrayList<>();
    for (Fragment f : fs) {
      out.add(f.toBytes());
    }
    return out;
  }

  public static FragmentKey keyOf(byte[] fragment) throws CorruptDataException {
    Fragment f = Fragment.parse(fragment);
    return FragmentKey.of(f);
  }

  /** A fragment as a network read leaves it: direct memory, split over components at odd places. */
  static io.netty.buffer.ByteBuf scattered(byte[] fragment, int pieces) {
    io.netty.buffer.CompositeByteBuf c = io.netty.buffer.Unpooled.compositeBuffer();
    int step = Math.max(1, fragment.length / pieces) + 7;
    for (int off = 0; off < fragment.length; off += step) {
      int n = Math.min(step, fragment.length - off);
      c.addComponent(true, io.netty.buffer.Unpooled.directBuffer(n).writeBytes(fragment, off, n));
    }
    return c;
  }

  @Test
  void putBuffers_storesFragmentsSpreadOverDirectComponents_andLeavesTheBuffersAsTheyWere() throws IOException {
    List<byte[]> fragments = fragmentsOf(21, 200_000);
    List<io.netty.buffer.ByteBuf> bufs = new ArrayList<>();
    for (byte[] f : fragments) {
      io.netty.buffer.ByteBuf b = scattered(f, 5);
      b.readerIndex(0);
      bufs.add(b);
    }
    try (FragmentStore store = FragmentStore.open(dir)) {
      long total = fragments.stream().mapToLong(f -> f.length).sum();
      assertThat(store.putBuffers(bufs)).isEqualTo(total);
      for (int i = 0; i < fragments.size(); i++) {
        assertThat(store.get(keyOf(fragments.get(i)))).as("fragment %d", i).isEqualTo(fragments.get(i));
        assertThat(bufs.get(i).readableBytes()).as("reader index kept").isEqualTo(fragments.get(i).length);
        assertThat(bufs.get(i).refCnt()).as("not released: the caller owns the frame").isEqualTo(1);
      }
      assertThat(store.usedBytes()).isEqualTo(total);
    } finally {
      bufs.forEach(io.netty.buffer.ByteBuf::release);
    }
  }

  @Test
  void putSoft_isReadableAtOnce_durableAfterAFlush_andAKeptBootSurvivesACleanClose() throws IOException {
    List<byte[]> fragments = fragmentsOf(23, 150_000);
    List<io.netty.buffer.ByteBuf> bufs = new ArrayList<>();
    fragments.forEach(f -> bufs.add(io.netty.buffer.Unpooled.wrappedBuffer(f)));
    long boot;
    long seq;
    try (FragmentStore store = FragmentStore.open(dir, java.time.Duration.ofHours(1))) {
      FragmentStore.SoftState before = store.softState();
      seq = store.putSoft(bufs);
      assertThat(seq).isGreaterThan(before.durable());
      assertThat(store.get(keyOf(fragments.get(0)))).as("readable before it is durable").isEqualTo(fragments.get(0));
      assertThat(store.softState().durable()).as("no background flush within the hour").isLessThan(seq);
      store.flushSoftWrites();
      assertThat(store.softState().durable()).isEqualTo(seq);
      long second = store.putSoft(List.of(io.netty.buffer.Unpooled.wrappedBuffer(fragmentsOf(24, 50_000).get(0))));
      assertThat(second).isGreaterThan(seq);
      boot = store.softState().boot();
      seq = second;
    }
    assertThat(dir.resolve("soft.state")).as("a clean close keeps the boot id").exists();
    try (FragmentStore store = FragmentStore.open(dir, java.time.Duration.ofHours(1))) {
      assertThat(store.softState()).as("same boot, everything made durable at close")
          .isEqualTo(new FragmentStore.SoftState(boot, seq));
      assertThat(dir.resolve("soft.state")).as("a crash from now on must look like one").doesNotExist();
      for (byte[] f : fragments) {
        assertThat(store.get(keyOf(f))).isEqualTo(f);
      }
    }
    java.nio.file.Files.delete(dir.resolve("soft.state")); // as if the last run had crashed
    try (FragmentStore store = FragmentStore.open(dir)) {
      assertThat(store.softState().boot()).as("a run after a crash has a new boot id").isNotEqualTo(boot);
    }
  }

  @Test
  void putSoft_isMadeDurableInTheBackground() throws Exception {
    try (FragmentStore store = FragmentStore.open(dir, java.time.Duration.ofMillis(20))) {
      long seq = store.putSoft(List.of(io.netty.buffer.Unpooled.wrappedBuffer(fragmentsOf(25, 80_000).get(0))));
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
      while (store.softState().durable() < seq && System.nanoTime() < deadline) {
        Thread.sleep(10); // the flusher runs every 20 ms; nothing to await but its effect
      }
      assertThat(store.softState().durable()).isGreaterThanOrEqualTo(seq);
    }
  }

  @Test
  void putBuffers_refusesABatchWithOneFlippedPayloadBit_andStoresNoneOfIt() throws IOException {
    List<byte[]> fragments = fragmentsOf(22, 100_000);
    byte[] bad = fragments.get(2).clone();
    bad[bad.length - 3] ^= 0x10;
    List<io.netty.buffer.ByteBuf> bufs = List.of(scattered(fragments.get(0), 3), scattered(bad, 4));
    try (FragmentStore store = FragmentStore.open(dir)) {
      assertThatThrownBy(() -> store.putBuffers(bufs)).isInstanceOf(CorruptDataException.class).hasMessageContaining("CRC32C");
      assertThat(store.fragmentCount()).isZero();
      assertThat(store.diskBytes()).as("nothing appended").isZero();
    } finally {
      bufs.forEach(io.netty.buffer.ByteBuf::release);
    }
  }

  @Test
  void theSameChunkMadeTwoWays_isTwoFragments_neitherReplacesTheOther() throws IOException {
    // two apps store one chunk, one compressed and 3+2, the other raw and 4+1: dedup is per app, so both
    // pieces with index 0 may land on this peer, and each app must read back its own
    byte[] chunk = new byte[200_000];
    new Random(9).nextBytes(chunk);
    java.util.Arrays.fill(chunk, 0, 100_000, (byte) 0); // compressible half
    ChunkId id = ChunkId.of(chunk);
    Fragment a = new ChunkCodec(Compressor.parse("zstd:3"), Redundancy.parse("code:3+2")).encode(id, chunk, chunk.length)[0];
    Fragment b = new ChunkCodec(Compressor.parse("none"), Redundancy.parse("code:4+1")).encode(id, chunk, chunk.length)[0];
    assertThat(FragmentKey.of(a)).isNotEqualTo(FragmentKey.of(b));
    assertThat(FragmentKey.of(a).index()).isEqualTo(FragmentKey.of(b).index());
    try (FragmentStore store = FragmentStore.open(dir)) {
      store.putAll(List.of(a.toBytes()));
      store.putAll(List.of(b.toBytes()));
      assertThat(store.fragmentCount()).isEqualTo(2);
      assertThat(store.get(FragmentKey.of(a))).isEqualTo(a.toBytes());
      assertThat(store.get(FragmentKey.of(b))).isEqualTo(b.toBytes());
      assertThat(store.delete(List.of(FragmentKey.of(a)))).isEqualTo(1);
      assertThat(store.get(FragmentKey.of(b))).as("the other app's piece stays").isEqualTo(b.toBytes());
    }
  }

  @Test
  void aForgedFragmentUnderAHeldKey_doesNotReplaceIt() throws IOException {
    // CRC32C is no signature: a hostile donor can make other bytes whose header CRC (the tag) equals a
    // held piece's, so they carry the same key; the piece held must stay
    byte[] held = fragmentsOf(4, 30_000).get(1);
    byte[] forged = forgeUnderKeyOf(held, 5_000, new Random(44));
    assertThat(keyOf(forged)).isEqualTo(keyOf(held));
    assertThat(forged.length).isNotEqualTo(held.length);
    try (FragmentStore store = FragmentStore.open(dir)) {
      store.putAll(List.of(held));
      store.putAll(List.of(forged));
      assertThat(java.util.Arrays.equals(store.get(keyOf(held)), held)).as("the held piece is what is served").isTrue();
      assertThat(store.fragmentCount()).isEqualTo(1);
    }
  }

  /** Valid fragment bytes with another payload of {@code length} bytes and the header CRC of {@code original}. */
  static byte[] forgeUnderKeyOf(byte[] original, int length, Random random) {
    byte[] out = new byte[Fragment.HEADER_SIZE + length];
    System.arraycopy(original, 0, out, 0, Fragment.HEADER_SIZE);
    random.nextBytes(out);
    System.arraycopy(original, 0, out, 0, 20);
    System.arraycopy(original, 28, out, 28, 36); // chunk id and the tag
    java.nio.ByteBuffer.wrap(out, 20, 4).putInt(length);
    int tag = java.nio.ByteBuffer.wrap(original, 60, 4).getInt();
    forceCrc(out, 0, 60, 24, tag); // the payload-CRC field chosen so the header's CRC is the tag...
    int payloadCrc = java.nio.ByteBuffer.wrap(out, 24, 4).getInt();
    forceCrc(out, Fragment.HEADER_SIZE, length, Fragment.HEADER_SIZE + length - 4, payloadCrc); // ...and the payload made to match
    return out;
  }

  /** Sets {@code b[pos..pos+4)} so the CRC32C of {@code b[off..off+len)} is {@code target} (CRC is affine over GF(2)). */
  static void forceCrc(byte[] b, int off, int len, int pos, int target) {
    java.util.Arrays.fill(b, pos, pos + 4, (byte) 0);
    int base = crc(b, off, len);
    int[] column = new int[32];
    for (int bit = 0; bit < 32; bit++) {
      b[pos + bit / 8] ^= (byte) (1 << (bit % 8));
      column[bit] = crc(b, off, len) ^ base;
      b[pos + bit / 8] ^= (byte) (1 << (bit % 8));
    }
    // Gaussian elimination: find bits whose columns XOR to target ^ base
    int[] rows = column.clone();
    int[] chosen = new int[32]; // which original bits each reduced row is made of
    for (int i = 0; i < 32; i++) {
      chosen[i] = 1 << i;
    }
    int want = target ^ base;
    int result = 0;
    for (int r = 0; r < 32; r++) {
      int pivot = -1;
      for (int i = r; i < 32; i++) {
        if ((rows[i] >>> (31 - r) & 1) != 0) {
          pivot = i;
          break;
        }
      }
      if (pivot < 0) {
        throw new IllegalStateException("4 bytes cannot set this CRC");
      }
      int t = rows[r]; rows[r] = rows[pivot]; rows[pivot] = t;
      t = chosen[r]; chosen[r] = chosen[pivot]; chosen[pivot] = t;
      for (int i = 0; i < 32; i++) {
        if (i != r && (rows[i] >>> (31 - r) & 1) != 0) {
          rows[i] ^= rows[r];
          chosen[i] ^= chosen[r];
        }
      }
    }
    for (int r = 0; r < 32; r++) {
      if ((want >>> (31 - r) & 1) != 0) {
        result ^= chosen[r];
      }
    }
    for (int bit = 0; bit < 32; bit++) {
      if ((result >>> bit & 1) != 0) {
        b[pos + bit / 8] ^= (byte) (1 << (bit % 8));
      }
    }
    if (crc(b, off, len) != target) {
      throw new IllegalStateException("forcing the CRC failed");
    }
  }

  private static int crc(byte[] b, int off, int len) {
    java.util.zip.CRC32C c = new java.util.zip.CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }

  @Test
  void aStoreOfTheOlderKeyFormat_isRefusedWithWhatToDo() throws Exception {
    try (FragmentStore store = FragmentStore.open(dir)) {
      store.putAll(fragmentsOf(2, 10_000));
    }
    // make it look like format 1: fragments, and no format marker
    List<org.rocksdb.ColumnFamilyDescriptor> cfs = new ArrayList<>();
    try (org.rocksdb.Options listing = new org.rocksdb.Options()) {
      for (byte[] name : RocksDB.listColumnFamilies(listing, dir.toString())) {
        cfs.add(new org.rocksdb.ColumnFamilyDescriptor(name));
      }
    }
    List<org.rocksdb.ColumnFamilyHandle> hs = new ArrayList<>();
    try (org.rocksdb.DBOptions o = new org.rocksdb.DBOptions(); RocksDB db = RocksDB.open(o, dir.toString(), cfs, hs)) {
      db.delete(hs.get(0), "format".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      hs.forEach(org.rocksdb.ColumnFamilyHandle::close);
    }
    assertThatThrownBy(() -> FragmentStore.open(dir)).isInstanceOf(IOException.class).hasMessageContaining("older Cairn")
        .hasMessageContaining("Move the directory away");
  }

  @Test
  void putGetDelete_andUsageSurvivesReopen() throws IOException {
    List<byte[]> fragments = fragmentsOf(1, 100_000);
    long total = fragments.stream().mapToLong(b -> b.length).sum();
    try (FragmentStore store = FragmentStore.open(dir)) {
      assertThat(store.putAll(fragments)).isEqualTo(total);
      assertThat(store.putAll(fragments)).as("re-put adds nothing").isZero();
      assertThat(store.usedBytes()).isEqualTo(total);
      assertThat(store.fragmentCount()).isEqualTo(5);
    }
    try (FragmentStore store = FragmentStore.open(dir)) {
      assertThat(store.usedBytes()).isEqualTo(total);
      for (byte[] f : fragments) {
        assertThat(store.get(keyOf(f))).isEqualTo(f);
        assertThat(store.contains(keyOf(f))).isTrue();
      }
      assertThat(store.delete(List.of(keyOf(fragments.get(0)), keyOf(fragments.get(1))))).isEqualTo(2);
      assertThat(store.get(keyOf(fragments.get(0)))).isNull();
      assertThat(store.usedBytes()).isEqualTo(total - fragments.get(0).length - fragments.get(1).length);
      assertThat(store.inventory(null, 100)).hasSize(3);
    }
  }

  @Test
  void concurrentOverlappingWritesAndDeletes_keepTheUsageExact() throws Exception {
    // 4 threads write batches drawn from the same 12 chunks (so batches share keys), some with a key twice,
    // and delete some; afterwards the running totals must equal what a fresh open counts from disk
    List<List<byte[]>> chunks = new ArrayList<>();
    for (int c = 0; c < 12; c++) {
      chunks.add(fragmentsOf(100 + c, 20_000));
    }
    try (FragmentStore store = FragmentStore.open(dir)) {
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
      List<java.util.concurrent.Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int seed = t;
        done.add(pool.submit(() -> {
          Random rnd = new Random(seed);
          for (int round = 0; round < 60; round++) {
            List<byte[]> batch = new ArrayList<>();
            for (int j = 0; j < 4; j++) {
              List<byte[]> c = chunks.get(rnd.nextInt(chunks.size()));
              batch.add(c.get(rnd.nextInt(c.size())));
            }
            batch.add(batch.get(0));
            if (rnd.nextInt(4) == 0) {
              List<FragmentKey> gone = new ArrayList<>();
              for (byte[] f : batch) {
                gone.add(keyOf(f));
              }
              store.delete(gone);
            } else {
              store.putAll(batch);
            }
          }
          return null;
        }));
      }
      for (java.util.concurrent.Future<?> f : done) {
        f.get();
      }
      pool.shutdown();
      long used = store.usedBytes();
      long count = store.fragmentCount();
      store.close();
      try (FragmentStore again = FragmentStore.open(dir)) {
        assertThat(again.usedBytes()).isEqualTo(used);
        assertThat(again.fragmentCount()).isEqualTo(count).isPositive();
      }
    }
  }

  @Test
  void aClosedStore_refusesCallsInsteadOfTouchingTheClosedDb() throws IOException {
    FragmentStore store = FragmentStore.open(dir);
    List<byte[]> fragments = fragmentsOf(3, 10_000);
    store.close();
    assertThatThrownBy(() -> store.putAll(fragments)).hasMessageContaining("closed");
    assertThatThrownBy(() -> store.get(keyOf(fragments.get(0)))).hasMessageContaining("closed");
    assertThatThrownBy(() -> store.delete(List.of(keyOf(fragments.get(0))))).hasMessageContaining("closed");
  }

  @Test
  void putAll_storesNothingIfAnyFragmentIsBad() throws IOException {
    List<byte[]> fragments = fragmentsOf(2, 50_000);
    byte[] bad = fragments.get(3).clone();
    bad[bad.length - 10] ^= 1;
    List<byte[]> batch = new ArrayList<>(fragments);
    batch.set(3, bad);
    try (FragmentStore store = FragmentStore.open(dir)) {
      assertThatThrownBy(() -> store.putAll(batch)).isInstanceOf(CorruptDataException.class).hasMessageContaining("CRC32C");
      assertThat(store.fragmentCount()).isZero();
      assertThat(store.usedBytes()).isZero();
      List<byte[]> truncated = List.of(java.util.Arrays.copyOf(fragments.get(0), 100));
      assertThatThrownBy(() -> store.putAll(truncated)).hasMessageContaining("truncated");
    }
  }

  @Test
  void get_dropsAFragmentThatRottedOnDisk() throws Exception {
    List<byte[]> fragments = fragmentsOf(3, 60_000);
    FragmentKey key = keyOf(fragments.get(2));
    try (FragmentStore store = FragmentStore.open(dir)) {
      store.putAll(fragments);
    }
    // rot one payload byte of that fragment in its segment file, behind the store's back
    Path segment;
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir.resolve("segments"))) {
      segment = files.filter(p -> {
        try {
          return java.nio.file.Files.size(p) > 0;
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).findFirst().orElseThrow();
    }
    byte[] bytes = java.nio.file.Files.readAllBytes(segment);
    int at = indexOf(bytes, fragments.get(2));
    assertThat(at).as("the fragment's bytes are in the segment").isNotNegative();
    bytes[at + Fragment.HEADER_SIZE + 5] ^= 0x10;
    java.nio.file.Files.write(segment, bytes);
    try (FragmentStore store = FragmentStore.open(dir)) {
      assertThatThrownBy(() -> store.get(key)).isInstanceOf(CorruptDataException.class).hasMessageContaining("dropped");
      assertThat(store.get(key)).isNull();
      assertThat(store.fragmentCount()).isEqualTo(4);
      assertThat(store.get(keyOf(fragments.get(1)))).isEqualTo(fragments.get(1));
    }
  }

  static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Test
  void eachFragmentsBytesAreWrittenOnce_intoSegmentFiles() throws IOException {
    List<byte[]> fragments = fragmentsOf(4, 1_000_000);
    long total = fragments.stream().mapToLong(b -> b.length).sum();
    try (FragmentStore store = FragmentStore.open(dir)) {
      store.putAll(fragments);
      long once = store.segmentSizes().values().stream().mapToLong(Long::longValue).sum();
      // a direct write pads the batch to the file system's next block
      assertThat(once).isBetween(total, total + 65536);
      store.putAll(fragments); // the same pieces again: nothing new is written
      assertThat(store.segmentSizes().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(once);
    }
    // RocksDB holds only the index: its files are far smaller than the fragments
    long rocks;
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir)) {
      rocks = files.filter(java.nio.file.Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
    assertThat(rocks).isLessThan(total / 4);
  }

  @Test
  void aFormat2Store_isConvertedOnOpen_andItsFragmentsServed() throws Exception {
    // format 2: values in a "fragments" column family, sizes in "sizes", marker "2"
    List<byte[]> fragments = new ArrayList<>(fragmentsOf(5, 80_000));
    fragments.addAll(fragmentsOf(6, 30_000));
    RocksDB.loadLibrary();
    try (org.rocksdb.DBOptions o = new org.rocksdb.DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
        org.rocksdb.ColumnFamilyOptions cf = new org.rocksdb.ColumnFamilyOptions()) {
      List<org.rocksdb.ColumnFamilyHandle> hs = new ArrayList<>();
      try (RocksDB db = RocksDB.open(o, dir.toString(), List.of(
          new org.rocksdb.ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cf),
          new org.rocksdb.ColumnFamilyDescriptor("fragments".getBytes(), cf),
          new org.rocksdb.ColumnFamilyDescriptor("sizes".getBytes(), cf)), hs)) {
        db.put(hs.get(0), "format".getBytes(), "2".getBytes());
        for (byte[] f : fragments) {
          db.put(hs.get(1), keyOf(f).toBytes(), f);
          db.put(hs.get(2), keyOf(f).toBytes(), java.nio.ByteBuffer.allocate(4).putInt(f.length).array());
        }
        hs.forEach(org.rocksdb.ColumnFamilyHandle::close);
      }
    }
    long total = fragments.stream().mapToLong(b -> b.length).sum();
    try (FragmentStore store = FragmentStore.open(dir)) {
      assertThat(store.fragmentCount()).isEqualTo(fragments.size());
      assertThat(store.usedBytes()).isEqualTo(total);
      for (byte[] f : fragments) {
        assertThat(store.get(keyOf(f))).isEqualTo(f);
      }
    }
    List<String> families = new ArrayList<>();
    try (org.rocksdb.Options listing = new org.rocksdb.Options()) {
      for (byte[] name : RocksDB.listColumnFamilies(listing, dir.toString())) {
        families.add(new String(name));
      }
    }
    assertThat(families).as("the old column families are dropped").doesNotContain("fragments", "sizes");
    try (FragmentStore store = FragmentStore.open(dir)) {
      assertThat(store.usedBytes()).isEqualTo(total);
      assertThat(store.get(keyOf(fragments.get(7)))).isEqualTo(fragments.get(7));
    }
  }

  @Test
  void sparseSegments_areCompacted_whileReadsGoOn() throws Exception {
    List<List<byte[]>> chunks = new ArrayList<>();
    for (int c = 0; c < 60; c++) {
      chunks.add(fragmentsOf(100 + c, 100_000)); // 5 pieces of about 33 KB: about 10 MB in all
    }
    try (FragmentStore store = FragmentStore.open(dir, 1 << 20)) {
      for (List<byte[]> chunk : chunks) {
        store.putAll(chunk);
      }
      int segmentsBefore = store.segmentSizes().size();
      assertThat(segmentsBefore).isGreaterThan(5);
      List<byte[]> kept = new ArrayList<>();
      List<FragmentKey> doomed = new ArrayList<>();
      for (int c = 0; c < chunks.size(); c++) {
        for (byte[] f : chunks.get(c)) {
          if (c % 5 == 0) {
            kept.add(f);
          } else {
            doomed.add(keyOf(f));
          }
        }
      }
      // a reader keeps reading the kept pieces while their segments are compacted under it
      java.util.concurrent.atomic.AtomicReference<Throwable> readerFailed = new java.util.concurrent.atomic.AtomicReference<>();
      java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
      java.util.concurrent.atomic.AtomicLong reads = new java.util.concurrent.atomic.AtomicLong();
      Thread reader = new Thread(() -> {
        try {
          while (!stop.get()) {
            for (byte[] f : kept) {
              if (!java.util.Arrays.equals(store.get(keyOf(f)), f)) {
                throw new AssertionError("a kept piece read back wrong or missing");
              }
              reads.incrementAndGet();
            }
          }
        } catch (Throwable t) {
          readerFailed.set(t);
        }
      });
      reader.start();
      for (int i = 0; i < doomed.size(); i += 7) {
        store.delete(doomed.subList(i, Math.min(doomed.size(), i + 7)));
      }
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
      while (store.compactedSegments() < segmentsBefore - 3 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      stop.set(true);
      reader.join();
      assertThat(readerFailed.get()).isNull();
      assertThat(reads.get()).isPositive();
      assertThat(store.compactedSegments()).as("sparse segments compacted").isGreaterThanOrEqualTo(segmentsBefore - 3);
      long live = kept.stream().mapToLong(b -> b.length).sum();
      assertThat(store.usedBytes()).isEqualTo(live);
      long onDisk = store.segmentSizes().values().stream().mapToLong(Long::longValue).sum();
      assertThat(onDisk).as("dead space reclaimed").isLessThan(2 * live + (2 << 20));
      for (FragmentKey k : doomed.subList(0, 20)) {
        assertThat(store.get(k)).isNull();
      }
    }
    try (FragmentStore store = FragmentStore.open(dir, 1 << 20)) {
      for (int c = 0; c < chunks.size(); c += 5) {
        for (byte[] f : chunks.get(c)) {
          assertThat(store.get(keyOf(f))).isEqualTo(f);
        }
      }
    }
  }

  /**
   * Dead space in segments that are still at least half live is not compacted on its own; the peer
   * counts the files against its quota and asks for it back with compactDeadSpace, which takes the
   * deadest sealed segments first until what is left is within the allowance.
   */
  @Test
  void deadSpace_countsOnDisk_andIsCompactedOnRequest_deadestSegmentsFirst() throws Exception {
    List<List<byte[]>> chunks = new ArrayList<>();
    for (int c = 0; c < 40; c++) {
      chunks.add(fragmentsOf(300 + c, 100_000));
    }
    try (FragmentStore store = FragmentStore.open(dir, 1 << 20)) {
      for (List<byte[]> chunk : chunks) {
        store.putAll(chunk);
      }
      long padding = store.diskBytes() - store.usedBytes();
      assertThat(padding).as("only direct writes' padding to a block: under one block per put").isBetween(0L, 40L * 65536);
      // one chunk in three dies: every segment stays more than half live, so nothing compacts by itself
      List<FragmentKey> doomed = new ArrayList<>();
      long doomedBytes = 0;
      for (int c = 0; c < chunks.size(); c += 3) {
        for (byte[] f : chunks.get(c)) {
          doomed.add(keyOf(f));
          doomedBytes += f.length;
        }
      }
      store.delete(doomed);
      assertThat(store.compactedSegments()).isZero();
      long dead = store.diskBytes() - store.usedBytes();
      assertThat(dead).as("deleted bytes stay on disk").isEqualTo(doomedBytes + padding);
      assertThat(store.compactDeadSpace(dead)).as("within the allowance: nothing to do").isZero();
      long allowance = dead / 4;
      int compacted = store.compactDeadSpace(allowance);
      assertThat(compacted).isPositive();
      assertThat(store.diskBytes() - store.usedBytes()).isLessThanOrEqualTo(allowance);
      // with no allowance, every sealed segment goes; what is left dead is the active segment's and
      // the padding of the copies' batches (one block at most per segment the copies filled)
      java.util.Set<Integer> before = new java.util.HashSet<>(store.segmentSizes().keySet());
      before.remove(java.util.Collections.max(before));
      store.compactDeadSpace(0);
      assertThat(store.segmentSizes().keySet()).doesNotContainAnyElementsOf(before);
      long activeSize = store.segmentSizes().values().stream().mapToLong(Long::longValue).max().orElse(0);
      assertThat(store.diskBytes() - store.usedBytes()).isLessThanOrEqualTo(activeSize + 65536L * store.segmentSizes().size());
      for (int c = 0; c < chunks.size(); c++) {
        for (byte[] f : chunks.get(c)) {
          assertThat(store.get(keyOf(f))).isEqualTo(c % 3 == 0 ? null : f);
        }
      }
    }
  }

  @Test
  void leftoversOfACrash_unindexedBytesAndSegments_areHarmlessAndReclaimed() throws Exception {
    List<byte[]> fragments = fragmentsOf(7, 50_000);
    try (FragmentStore store = FragmentStore.open(dir)) {
      store.putAll(fragments);
    }
    // a crash after the append and before the index write: bytes nothing points to, in a segment of their own
    Path orphan = dir.resolve("segments").resolve("00000077.seg");
    java.nio.file.Files.write(orphan, fragmentsOf(8, 50_000).get(0));
    try (FragmentStore store = FragmentStore.open(dir)) {
      assertThat(orphan).as("a segment nothing points into is deleted on open").doesNotExist();
      assertThat(store.fragmentCount()).isEqualTo(5);
      for (byte[] f : fragments) {
        assertThat(store.get(keyOf(f))).isEqualTo(f);
      }
      // new writes go to a new segment after the highest seen
      store.putAll(fragmentsOf(9, 50_000));
      assertThat(store.segmentSizes().keySet()).allMatch(id -> id != 77);
    }
  }

  @Test
  void anInterruptedReader_doesNotBreakTheSegmentForOthers() throws Exception {
    List<byte[]> fragments = fragmentsOf(10, 50_000);
    try (FragmentStore store = FragmentStore.open(dir)) {
      store.putAll(fragments);
      Thread.currentThread().interrupt(); // FileChannel I/O closes the channel when its thread is interrupted
      try {
        assertThatThrownBy(() -> store.get(keyOf(fragments.get(0)))).isInstanceOf(java.io.InterruptedIOException.class);
      } finally {
        Thread.interrupted();
      }
      for (byte[] f : fragments) {
        assertThat(store.get(keyOf(f))).isEqualTo(f);
      }
      store.putAll(fragmentsOf(11, 50_000));
      assertThat(store.fragmentCount()).isEqualTo(10);
    }
  }

  @Test
  void inventory_pagesInKeyOrder() throws IOException {
    try (FragmentStore store = FragmentStore.open(dir)) {
      for (int c = 0; c < 5; c++) {
        store.putAll(fragmentsOf(10 + c, 1000));
      }
      List<FragmentKey> all = new ArrayList<>();
      FragmentKey after = null;
      List<FragmentKey> page;
      while (!(page = store.inventory(after, 7)).isEmpty()) {
        all.addAll(page);
        after = page.get(page.size() - 1);
      }
      assertThat(all).hasSize(25).isSorted().doesNotHaveDuplicates();
    }
  }

  /**
   * A disk that fills up (ENOSPC inside RocksDB) on a real small file system: a tmpfs of 24 MiB,
   * mounted for the test, which needs root (skipped otherwise; CI runs as root).
   */
  @Test
  void aFullDisk_isReported_andWritesWorkAgainWhenSpaceReturns() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name"))
        && java.nio.file.Files.isExecutable(Path.of("/bin/mount")), "needs root to mount a small tmpfs");
    Path mnt = java.nio.file.Files.createDirectories(dir.resolve("small"));
    Process mount = new ProcessBuilder("/bin/mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", mnt.toString()).inheritIO().start();
    org.junit.jupiter.api.Assumptions.assumeTrue(mount.waitFor() == 0, "mount -t tmpfs is not allowed here");
    try {
      Path filler = mnt.resolve("filler");
      java.nio.file.Files.write(filler, new byte[8 << 20]); // someone else's 8 MiB, deleted later
      try (FragmentStore store = FragmentStore.open(mnt.resolve("db"))) {
        IOException failure = null;
        int stored = 0;
        for (int i = 0; i < 400 && failure == null; i++) {
          try {
            store.putAll(fragmentsOf(1000 + i, 300_000));
            stored++;
          } catch (IOException e) {
            failure = e;
          }
        }
        assertThat(failure).as("the disk filled up").isNotNull();
        assertThat(stored).isPositive();
        assertThat(store.outOfSpace()).contains("No space left");
        assertThat(store.checkWritable()).as("still full").isFalse();
        // what was stored before is still served
        byte[] first = fragmentsOf(1000, 300_000).get(0);
        assertThat(store.get(keyOf(first))).isEqualTo(first);

        java.nio.file.Files.delete(filler);
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (!store.checkWritable() && System.nanoTime() < deadline) {
          Thread.sleep(100); // RocksDB's SstFileManager polls for space and clears its background error
        }
        assertThat(store.outOfSpace()).as("writable again once space returned").isNull();
        store.putAll(fragmentsOf(5000, 100_000));
        assertThat(store.get(keyOf(fragmentsOf(5000, 100_000).get(0)))).isNotNull();
      }
    } finally {
      new ProcessBuilder("/bin/umount", "-l", mnt.toString()).inheritIO().start().waitFor();
    }
  }

  @Test
  void rocksDbsNativeLibrary_comesFromTheCache_andIsNotLeftInTheTemporaryDirectory() throws Exception {
    try (FragmentStore store = FragmentStore.open(dir.resolve("lib"))) {
      Path maps = Path.of("/proc/self/maps");
      org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isReadable(maps), "needs /proc (Linux)");
      boolean mapped = false;
      for (String line : java.nio.file.Files.readAllLines(maps)) {
        if (line.contains("librocksdbjni")) {
          mapped = true;
          // loaded from the user's cache (NativeCache), or unpacked into the temporary directory and already
          // unlinked there: a killed peer leaves nothing behind
          Path path = Path.of(line.substring(line.indexOf('/')).replace(" (deleted)", "").trim());
          Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
          if (path.getParent().equals(tmp)) {
            assertThat(path).as(line).doesNotExist();
          } else {
            assertThat(path).as(line).startsWith(org.cairn.core.util.NativeCache.root()).exists();
          }
        }
      }
      assertThat(mapped).as("RocksDB's native library is mapped").isTrue();
    }
  }
}
