package org.cairn.peer.store.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentLogTest {
  @TempDir
  Path dir;

  private static byte[] bytes(Random r, int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }

  /** {@code value} in direct buffers of about {@code pieces} parts, as a fragment arrives from the network. */
  private static ByteBuf scattered(byte[] value, int pieces) {
    io.netty.buffer.CompositeByteBuf c = io.netty.buffer.Unpooled.compositeBuffer();
    int step = Math.max(1, value.length / pieces) + 7;
    for (int off = 0; off < value.length; off += step) {
      int n = Math.min(step, value.length - off);
      c.addComponent(true, io.netty.buffer.Unpooled.directBuffer(n).writeBytes(value, off, n));
    }
    return c;
  }

  /** Durable and soft appends of odd sizes, spread over direct components, read back byte for byte. */
  private static void appendAndReadBack(SegmentLog log, long seed, boolean expectAligned, int block) throws IOException {
    Random r = new Random(seed);
    List<byte[]> written = new ArrayList<>();
    List<SegmentLog.Location> at = new ArrayList<>();
    for (int batch = 0; batch < 40; batch++) {
      boolean durable = batch % 3 != 1;
      List<byte[]> values = new ArrayList<>();
      List<ByteBuf> bufs = new ArrayList<>();
      int count = 1 + r.nextInt(4);
      for (int i = 0; i < count; i++) {
        // up to 1.5 MiB: a batch can be larger than the direct appender's 2 MiB staging buffer
        byte[] v = bytes(r, 1 + r.nextInt(r.nextBoolean() ? 5000 : 1_500_000));
        values.add(v);
        bufs.add(scattered(v, 3));
      }
      List<SegmentLog.Location> locs = log.append(bufs, durable);
      for (ByteBuf b : bufs) {
        assertThat(b.readerIndex()).isZero(); // the values' indices are left as they were
        b.release();
      }
      if (durable && expectAligned) {
        assertThat(locs.get(0).offset() % block).as("a direct append starts on a block boundary").isZero();
      }
      written.addAll(values);
      at.addAll(locs);
    }
    log.syncAll();
    for (int i = 0; i < written.size(); i++) {
      assertThat(log.read(at.get(i))).as("value %d", i).isEqualTo(written.get(i));
    }
  }

  @Test
  void appends_readBackExactly_inWhateverModeTheFileSystemAllows_andSurviveAReopen() throws IOException {
    Path segs = dir.resolve("segments");
    DirectAppender probe;
    Files.createDirectories(segs);
    probe = DirectAppender.probe(segs);
    try (SegmentLog log = SegmentLog.open(segs, 8 << 20)) {
      assertThat(log.writeMode()).contains(probe == null ? "page cache" : "direct I/O");
      appendAndReadBack(log, 7, probe != null, probe == null ? 1 : probe.blockSize());
      assertThat(log.ids()).as("8 MiB segments rolled over").hasSizeGreaterThan(2);
    }
    assertThat(segs.resolve("direct-io.probe")).doesNotExist();
    try (SegmentLog again = SegmentLog.open(segs, 8 << 20)) {
      appendAndReadBack(again, 8, probe != null, probe == null ? 1 : probe.blockSize());
    }
  }

  @Test
  void directAppends_areBlockAligned_andPaddedWithZeros() throws IOException {
    Path segs = dir.resolve("segments");
    Files.createDirectories(segs);
    DirectAppender probe = DirectAppender.probe(segs);
    assumeTrue(probe != null, "this file system refuses O_DIRECT; the buffered path is tested above");
    int block = probe.blockSize();
    try (SegmentLog log = SegmentLog.open(segs, 8 << 20)) {
      byte[] a = bytes(new Random(1), block + 3);
      SegmentLog.Location first = log.append(List.of(io.netty.buffer.Unpooled.wrappedBuffer(a))).get(0);
      SegmentLog.Location second = log.append(List.of(io.netty.buffer.Unpooled.wrappedBuffer(a))).get(0);
      assertThat(first.offset()).isZero();
      assertThat(second.offset()).isEqualTo(2L * block);
      assertThat(log.size(first.segment())).isEqualTo(4L * block);
      byte[] gap = log.read(new SegmentLog.Location(first.segment(), block + 3, block - 3));
      assertThat(gap).containsOnly((byte) 0);
      assertThat(log.read(second)).isEqualTo(a);
    }
  }

  @Test
  void withoutODirect_theLogWritesThroughThePageCache() throws IOException {
    Path shm = Path.of("/dev/shm");
    assumeTrue(Files.isDirectory(shm) && Files.isWritable(shm), "no /dev/shm here");
    Path segs = Files.createTempDirectory(shm, "segment-log-test");
    try {
      assumeTrue(DirectAppender.probe(segs) == null, "this /dev/shm takes O_DIRECT");
      try (SegmentLog log = SegmentLog.open(segs, 8 << 20)) {
        assertThat(log.writeMode()).contains("page cache");
        appendAndReadBack(log, 9, false, 1);
      }
    } finally {
      try (var files = Files.walk(segs)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  void directIo_canBeTurnedOff() throws IOException {
    Path segs = dir.resolve("segments");
    Files.createDirectories(segs);
    try (SegmentLog log = SegmentLog.open(segs, 8 << 20, false)) {
      assertThat(log.writeMode()).contains("page cache");
      appendAndReadBack(log, 10, false, 1);
    }
  }
}
