package org.cairn.core.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.cairn.core.hash.ChunkId;
import org.junit.jupiter.api.Test;

/** The three chunkings: every cut reassembles the image; aligned and cdc cuts survive a grown area. */
class ChunkingTest {
  private static final int S = 64 * 1024;

  record Cut(long offset, int length, ChunkId id) {}

  static List<Cut> cut(Chunking chunking, byte[] image) throws IOException {
    return cut(chunking, image, S);
  }

  static List<Cut> cut(Chunking chunking, byte[] image, int chunkSize) throws IOException {
    Chunker c = chunking.chunker(new ByteArrayInputStream(image), chunkSize, null);
    List<Cut> out = new ArrayList<>();
    ByteArrayOutputStream joined = new ByteArrayOutputStream();
    Chunk ch;
    while ((ch = c.next()) != null) {
      assertThat(ch.offset()).isEqualTo(joined.size());
      assertThat(ch.length()).isBetween(1, chunking.maxChunk(chunkSize));
      joined.write(ch.data(), 0, ch.length());
      out.add(new Cut(ch.offset(), ch.length(), ChunkId.of(ch.data(), 0, ch.length())));
    }
    assertThat(c.next()).isNull();
    assertThat(joined.toByteArray()).as("the chunks reassemble the image").isEqualTo(image);
    assertThat(c.bytesRead()).isEqualTo(image.length);
    return out;
  }

  /** Bytes of {@code after} in chunks that {@code before} also has. */
  static long shared(List<Cut> before, List<Cut> after) {
    Set<ChunkId> ids = new HashSet<>();
    before.forEach(c -> ids.add(c.id()));
    return after.stream().filter(c -> ids.contains(c.id())).mapToLong(Cut::length).sum();
  }

  static byte[] random(Random r, int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }

  @Test
  void cdc_cutsBetweenAQuarterAndTwiceTheSize_andResynchronisesAfterAnInsertion() throws IOException {
    Random r = new Random(20);
    byte[] image = random(r, 8 << 20);
    List<Cut> a = cut(Chunking.CDC, image);
    for (int i = 0; i < a.size() - 1; i++) {
      assertThat(a.get(i).length()).isBetween(S / 4, 2 * S);
    }
    double mean = (double) image.length / a.size();
    assertThat(mean).as("mean chunk").isBetween(0.6 * S, 1.4 * S);
    assertThat(cut(Chunking.CDC, image)).as("deterministic").isEqualTo(a);

    byte[] grown = new byte[image.length + 1000];
    System.arraycopy(image, 0, grown, 0, 3 << 20);
    System.arraycopy(random(r, 1000), 0, grown, 3 << 20, 1000);
    System.arraycopy(image, 3 << 20, grown, (3 << 20) + 1000, image.length - (3 << 20));
    List<Cut> b = cut(Chunking.CDC, grown);
    long sharedAfter = b.stream().filter(c -> c.offset() > (3 << 20) + 4 * S).filter(c -> a.stream().anyMatch(x -> x.id().equals(c.id())))
        .mapToLong(Cut::length).sum();
    long after = b.stream().filter(c -> c.offset() > (3 << 20) + 4 * S).mapToLong(Cut::length).sum();
    assertThat(sharedAfter).as("bytes after the insertion in chunks the first image has").isEqualTo(after);
    // fixed chunks lose everything after the insertion
    assertThat(shared(cut(Chunking.FIXED, image), cut(Chunking.FIXED, grown))).isLessThanOrEqualTo(3L << 20);
  }

  @Test
  void cdc_handlesEmptyTinyAndExactImages() throws IOException {
    assertThat(cut(Chunking.CDC, new byte[0])).isEmpty();
    assertThat(cut(Chunking.CDC, new byte[10])).hasSize(1);
    assertThat(cut(Chunking.CDC, new byte[2 * S])).hasSize(1); // zeros never match a cut: one chunk of the maximum
    assertThat(cut(Chunking.CDC, new byte[2 * S + 1])).extracting(Cut::length).containsExactly(2 * S, 1);
  }

  /** An ELF64 core file: header, program headers, a note, then the PT_LOAD segments (page-aligned). */
  static byte[] elfCore(byte[] note, byte[]... segments) {
    int phnum = segments.length + 1;
    int tableEnd = 64 + 56 * phnum;
    long at = tableEnd + note.length;
    long[] offsets = new long[segments.length];
    for (int i = 0; i < segments.length; i++) {
      at = (at + 4095) / 4096 * 4096;
      offsets[i] = at;
      at += segments[i].length;
    }
    ByteBuffer b = ByteBuffer.allocate((int) at).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1});
    b.putShort(16, (short) 4).putShort(18, (short) 62).putLong(32, 64).putShort(52, (short) 64).putShort(54, (short) 56)
        .putShort(56, (short) phnum);
    b.putInt(64, 4).putLong(64 + 8, tableEnd).putLong(64 + 32, note.length);
    for (int i = 0; i < segments.length; i++) {
      int ph = 64 + 56 * (i + 1);
      b.putInt(ph, 1).putLong(ph + 8, offsets[i]).putLong(ph + 32, segments[i].length).putLong(ph + 40, segments[i].length);
      b.put((int) offsets[i], segments[i]);
    }
    b.put(tableEnd, note);
    return b.array();
  }

  @Test
  void aligned_elfCore_aGrownSegmentShiftsNoLaterSegmentsChunks() throws IOException {
    Random r = new Random(21);
    byte[] s1 = random(r, 5 * S + 8192);
    byte[] s2 = random(r, 7 * S);
    byte[] s3 = random(r, 3 * S + 4096);
    byte[] grownS1 = new byte[s1.length + 3 * 4096];
    System.arraycopy(s1, 0, grownS1, 0, s1.length);
    byte[] before = elfCore(random(r, 900), s1, s2, s3);
    byte[] after = elfCore(random(r, 900), grownS1, s2, s3);
    assertThat(new AlignedChunker(new ByteArrayInputStream(before), S, null).format()).isEqualTo("elf-core");
    // all but s1's last, grown chunk
    long unchanged = 5L * S + s2.length + s3.length;
    assertThat(shared(cut(Chunking.ALIGNED, before), cut(Chunking.ALIGNED, after))).as("aligned").isGreaterThanOrEqualTo(unchanged);
    assertThat(shared(cut(Chunking.FIXED, before), cut(Chunking.FIXED, after))).as("fixed").isLessThan(s1.length);
  }

  /** A DMTCP 5 image: two checkpoint headers, then area headers (4 KiB) each followed by its data. */
  static byte[] dmtcp(byte[]... areas) {
    long[] at = new long[areas.length];
    for (int i = 0; i < at.length; i++) {
      at[i] = 0x7f0000000000L + ((long) i << 32);
    }
    return dmtcp(at, areas);
  }

  static byte[] dmtcp(long[] addresses, byte[]... areas) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] header = new byte[4096];
    byte[] sig = "DMTCP_CHECKPOINT_IMAGE_v4.0\n".getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(sig, 0, header, 0, sig.length);
    header[100] = (byte) areas.length; // changes between checkpoints
    out.writeBytes(header);
    out.writeBytes(header);
    for (int i = 0; i < areas.length; i++) {
      byte[] data = areas[i];
      // a parent header (no data), then the child run with the bytes
      out.writeBytes(area(addresses[i], data.length + 8192, 0x22, 0, 0x2));
      out.writeBytes(area(addresses[i], data.length, 0x22, 0, 0x4));
      out.writeBytes(data);
      out.writeBytes(area(addresses[i] + data.length, 8192, 0x22, 0, 0x1 | 0x4)); // a zero run: header only
    }
    out.writeBytes(area(0, -1, 0, 0, 0));
    return out.toByteArray();
  }

  static byte[] area(long address, long size, long flags, long mmapFileSize, long properties) {
    ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(0, address).putLong(8, address + size).putLong(16, size).putLong(40, flags)
        .putLong(72, mmapFileSize).putLong(80, properties);
    return b.array();
  }

  @Test
  void aligned_dmtcp_aGrownAreaShiftsNoLaterAreasChunks_andHeadersAreChunksOfTheirOwn() throws IOException {
    Random r = new Random(22);
    byte[] a1 = random(r, 3 * S + 12288);
    byte[] a2 = random(r, 5 * S);
    byte[] a3 = random(r, 2 * S + 4096);
    byte[] grownA1 = new byte[a1.length + 5 * 4096];
    System.arraycopy(a1, 0, grownA1, 0, a1.length);
    byte[] before = dmtcp(a1, a2, a3);
    byte[] after = dmtcp(grownA1, a2, a3);
    assertThat(new AlignedChunker(new ByteArrayInputStream(before), S, null).format()).isEqualTo("dmtcp");
    List<Cut> cuts = cut(Chunking.ALIGNED, before);
    assertThat(cuts.get(0).length()).as("the two checkpoint headers").isEqualTo(8192);
    // each mapping (a parent header) starts a chunk; its runs' child headers travel with the data
    long mapping2 = 8192 + 4096 + 4096 + a1.length + 4096;
    long mapping3 = mapping2 + 4096 + 4096 + a2.length + 4096;
    assertThat(cuts).extracting(Cut::offset).contains(8192L, mapping2, mapping3);
    assertThat(cuts.get(1).length()).as("parent and child headers; the data starts at an aligned address").isEqualTo(8192);
    // a1's first chunk (its headers name the new size) and its last (grown) change; the rest is shared
    assertThat(shared(cuts, cut(Chunking.ALIGNED, after))).isGreaterThanOrEqualTo(2L * S + a2.length + a3.length);
    assertThat(shared(cut(Chunking.FIXED, before), cut(Chunking.FIXED, after))).isLessThan(a1.length);
  }

  /** Inside a memory area chunks are a quarter of the chunk size, so one rewritten page costs a quarter chunk. */
  @Test
  void aligned_dmtcp_insideAnArea_chunksAreAQuarter_andOneRewrittenPageChangesOneOfThem() throws IOException {
    int size = 1 << 20;
    int grain = size / 4;
    Random r = new Random(27);
    byte[] a1 = random(r, 4 * size);
    byte[] changed = a1.clone();
    changed[size + size / 2 + 100] ^= 1; // one byte in the middle of the area
    List<Cut> before = cut(Chunking.ALIGNED, dmtcp(a1), size);
    List<Cut> after = cut(Chunking.ALIGNED, dmtcp(changed), size);
    assertThat(before.stream().filter(c -> c.length() == grain).count()).as("the area's data in quarter chunks")
        .isGreaterThanOrEqualTo(4L * size / grain - 2);
    assertThat(before.stream().mapToInt(Cut::length).max().orElseThrow()).as("a quarter, with a run's child header at most")
        .isLessThanOrEqualTo(grain + 8192);
    assertThat(after).extracting(Cut::length).isEqualTo(before.stream().map(Cut::length).toList());
    long differing = java.util.stream.IntStream.range(0, before.size()).filter(i -> !before.get(i).equals(after.get(i))).count();
    assertThat(differing).as("only the changed page's chunk").isEqualTo(1);
  }

  /**
   * Chunks of memory carry the address of their first byte (what pairs a changed chunk with the
   * previous checkpoint's chunk there): the same page has the same address whatever moved in the file.
   */
  @Test
  void aligned_memoryChunksCarryTheirAddress_andTheCheckpointHeadersNone() throws IOException {
    Random r = new Random(28);
    byte[] a1 = random(r, 3 * S);
    byte[] a2 = random(r, 4 * S);
    long[] at = {0x55dbd2c67000L, 0x7f2c6c700000L};
    byte[] grownA1 = java.util.Arrays.copyOf(a1, a1.length + 2 * 4096);
    java.util.Map<Long, ChunkId> before = addresses(dmtcp(at, a1, a2));
    java.util.Map<Long, ChunkId> after = addresses(dmtcp(at, grownA1, a2));
    // each mapping's first chunk (its headers) names the mapping, tagged apart from its data
    assertThat(before).containsKey(ImageLayout.HEADER_TAG | at[0]).containsKey(ImageLayout.HEADER_TAG | at[1]);
    for (long a = at[1] + S; a < at[1] + a2.length; a += ImageLayout.areaGrain(S)) {
      assertThat(after.get(a)).as("a2's chunk at %x", a).isNotNull().isEqualTo(before.get(a));
    }
    Chunker c = Chunking.ALIGNED.chunker(new ByteArrayInputStream(dmtcp(at, a1, a2)), S, null);
    assertThat(c.next().address()).as("the checkpoint headers").isEqualTo(-1);
    Chunker plain = Chunking.ALIGNED.chunker(new ByteArrayInputStream(random(r, 3 * S)), S, null);
    assertThat(plain.next().address()).as("a file of no known format").isEqualTo(-1);
  }

  /**
   * A DMTCP computation's generation directory (one image per process and the restart script), as
   * {@code cairn dmtcp launch} stores it: each image in the tar is cut as a lone image is, so a grown
   * area in one process's image moves no chunk of the other's, and each image's chunks carry
   * locators of their own.
   */
  @Test
  void aligned_tarOfDmtcpImages_cutsEachImageAsALoneImage(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws IOException {
    Random r = new Random(29);
    byte[] a1 = random(r, 3 * S);
    byte[] a2 = random(r, 4 * S);
    byte[] b1 = random(r, 5 * S);
    long[] at = {0x55dbd2c67000L, 0x7f2c6c700000L};
    java.nio.file.Path gen1 = java.nio.file.Files.createDirectories(dir.resolve("g1"));
    java.nio.file.Path gen2 = java.nio.file.Files.createDirectories(dir.resolve("g2"));
    for (java.nio.file.Path g : List.of(gen1, gen2)) {
      byte[] first = g == gen1 ? a1 : java.util.Arrays.copyOf(a1, a1.length + 3 * 4096); // grown in the second generation
      java.nio.file.Files.write(g.resolve("ckpt_a_1.dmtcp"), dmtcp(at, first, a2));
      java.nio.file.Files.write(g.resolve("ckpt_b_2.dmtcp"), dmtcp(new long[] {at[1]}, b1));
      java.nio.file.Files.writeString(g.resolve("dmtcp_restart_script.sh"), "#!/bin/sh\necho " + g.getFileName() + "\n");
    }
    byte[] tar1 = TarImages.stream(gen1).readAllBytes();
    byte[] tar2 = TarImages.stream(gen2).readAllBytes();
    assertThat(new AlignedChunker(new ByteArrayInputStream(tar1), S, null).format()).isEqualTo("tar");
    List<Cut> before = cut(Chunking.ALIGNED, tar1); // reassembles
    List<Cut> after = cut(Chunking.ALIGNED, tar2);
    assertThat(shared(before, after)).as("a2 past its first chunk, and all of b1").isGreaterThanOrEqualTo(3L * S + b1.length);
    java.util.Map<Long, ChunkId> l1 = addresses(tar1);
    java.util.Map<Long, ChunkId> l2 = addresses(tar2);
    assertThat(l1.keySet().stream().filter(k -> (k & ((1L << 48) - 1)) == at[1] + S).count())
        .as("a2's and b1's chunks at the same address, told apart by their images' names").isEqualTo(2);
    for (long k : l1.keySet()) {
      if ((k & ((1L << 48) - 1)) >= at[1] + S && (k & ImageLayout.HEADER_TAG) == 0) {
        assertThat(l2.get(k)).as("chunk at locator %x", k).isEqualTo(l1.get(k));
      }
    }
  }

  private static java.util.Map<Long, ChunkId> addresses(byte[] image) throws IOException {
    java.util.Map<Long, ChunkId> out = new java.util.HashMap<>();
    Chunker c = Chunking.ALIGNED.chunker(new ByteArrayInputStream(image), S, null);
    Chunk ch;
    while ((ch = c.next()) != null) {
      if (ch.address() >= 0) {
        assertThat(out.put(ch.address(), ChunkId.of(ch.data(), 0, ch.length()))).as("one chunk per address").isNull();
      }
    }
    return out;
  }

  /** A new mmap below an anonymous mapping merges with it: the mapping grows at its start. */
  @Test
  void aligned_dmtcp_aMappingThatGrowsDownwards_keepsItsPagesChunks() throws IOException {
    Random r = new Random(25);
    byte[] a1 = random(r, 2 * S);
    byte[] a2 = random(r, 9 * S);
    byte[] grownA2 = new byte[a2.length + 3 * 4096];
    System.arraycopy(random(r, 3 * 4096), 0, grownA2, 0, 3 * 4096);
    System.arraycopy(a2, 0, grownA2, 3 * 4096, a2.length);
    long base = 0x7f2c6c7ff000L;
    byte[] before = dmtcp(new long[] {0x55dbd2c67000L, base}, a1, a2);
    byte[] after = dmtcp(new long[] {0x55dbd2c67000L, base - 3 * 4096}, a1, grownA2);
    // a2's pages from its first address that is a multiple of S keep their chunks
    long aligned = ImageLayout.toAligned(base, S);
    long expected = a1.length + (a2.length - aligned) / S * S;
    assertThat(shared(cut(Chunking.ALIGNED, before), cut(Chunking.ALIGNED, after))).isGreaterThanOrEqualTo(expected);
    assertThat(shared(cut(Chunking.FIXED, before), cut(Chunking.FIXED, after))).isLessThan(a1.length + S);
  }

  @Test
  void aligned_garbageHeaders_onlyCostDedup_neverTheImage() throws IOException {
    Random r = new Random(23);
    for (int i = 0; i < 200; i++) {
      byte[] image = random(r, r.nextInt(6 * S));
      if (i % 2 == 0 && image.length > 64) {
        System.arraycopy("DMTCP_CHECKPOINT_IMAGE_v4.0\n".getBytes(StandardCharsets.US_ASCII), 0, image, 0, 28);
      } else if (image.length > 64) {
        System.arraycopy(new byte[] {0x7f, 'E', 'L', 'F', 2, 1}, 0, image, 0, 6);
        image[16] = 4;
        image[17] = 0;
      }
      cut(Chunking.ALIGNED, image); // reassembles, every chunk within the size
    }
    byte[] huge = dmtcp(random(r, 1000));
    ByteBuffer.wrap(huge).order(ByteOrder.LITTLE_ENDIAN).putLong(8192 + 16, Long.MAX_VALUE / 2).putLong(8192 + 80, 0)
        .putLong(8192, -5);
    cut(Chunking.ALIGNED, huge);
  }

  @Test
  void aligned_unknownFiles_areCutAsFixed() throws IOException {
    byte[] image = random(new Random(24), 5 * S + 17);
    assertThat(new AlignedChunker(new ByteArrayInputStream(image), S, null).format()).isEqualTo("none");
    assertThat(cut(Chunking.ALIGNED, image)).isEqualTo(cut(Chunking.FIXED, image));
  }

  @Test
  void parse_namesTheChoices() {
    assertThat(Chunking.parse("CDC")).isEqualTo(Chunking.CDC);
    assertThatThrownBy(() -> Chunking.parse("rolling")).hasMessage("chunking must be fixed, aligned or cdc, was 'rolling'");
  }
}
