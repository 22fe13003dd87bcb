package org.cairn.core.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.cairn.core.hash.ChunkId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CRIU dump directory, stored as its tar: {@code pages-ID.img} is cut along the pagemap that names it, each chunk
 * keyed by the address of its first page, so the next dump of the process pairs each chunk with the one at the same
 * address even when a new run of pages moved everything after it in the file; a pagemap that does not match leaves
 * the pages cut as any file, and every cut reassembles the directory.
 */
class CriuChunkingTest {
  private static final int S = 256 * 1024;
  private static final int PAGE = CriuPagemap.PAGE;
  private static final long LOW = 0x55d0_0000_0000L;
  private static final long HEAP = 0x55d0_0040_0000L;
  private static final long STACK = 0x7ffd_1234_5000L;
  private static final long ADDRESS_BITS = (1L << 48) - 1;

  @TempDir
  Path dir;

  @Test
  void pagesAreCutAtRunsAndAlignedAddresses_andPairWithTheSameAddressInTheNextDump() throws IOException {
    Random r = new Random(67);
    byte[] heap = ChunkingTest.random(r, 300 * PAGE);
    byte[] stack = ChunkingTest.random(r, 9 * PAGE);
    byte[] heap2 = heap.clone();
    System.arraycopy(ChunkingTest.random(r, 2 * PAGE), 0, heap2, 100 * PAGE, 2 * PAGE); // dirtied between dumps
    byte[] low = ChunkingTest.random(r, 3 * PAGE); // mapped between dumps, below the heap: shifts it in the file
    Path d1 = dump("d1", CriuImages.pagemap(1).present(HEAP, 300).entry(HEAP + 400 * PAGE, 5, CriuPagemap.PE_PARENT)
        .present(STACK, 9).bytes(), heap, stack);
    Path d2 = dump("d2", CriuImages.pagemap(1).present(LOW, 3).present(HEAP, 300).present(STACK, 9).bytes(), low, heap2, stack);

    Map<Long, Chunk> first = chunksByLocator(TarImages.stream(d1).readAllBytes());
    Map<Long, Chunk> second = chunksByLocator(TarImages.stream(d2).readAllBytes());
    assertThat(first.keySet()).extracting(k -> k & ADDRESS_BITS).as("runs start chunks; inside, every 64 KiB of address")
        .contains(HEAP, HEAP + S / 4, HEAP + 3 * S / 4, STACK);
    long paired = 0;
    for (Map.Entry<Long, Chunk> e : first.entrySet()) {
      long a = e.getKey() & ADDRESS_BITS;
      assertThat(a % PAGE).as("chunks of pages start at a page").isZero();
      Chunk next = second.get(e.getKey());
      assertThat(next).as("the chunk at 0x%x in the next dump", a).isNotNull();
      boolean dirtied = a <= HEAP + 100 * PAGE && HEAP + 100 * PAGE < a + e.getValue().length();
      assertThat(id(next).equals(id(e.getValue()))).as("chunk at 0x%x unchanged unless dirtied", a).isEqualTo(!dirtied);
      paired += dirtied ? 0 : next.length();
    }
    assertThat(paired).as("all but the dirtied chunk").isGreaterThanOrEqualTo(heap.length + stack.length - S / 4);

    long fixedShared = ChunkingTest.shared(ChunkingTest.cut(Chunking.FIXED, TarImages.stream(d1).readAllBytes(), S),
        ChunkingTest.cut(Chunking.FIXED, TarImages.stream(d2).readAllBytes(), S));
    assertThat(fixedShared).as("fixed chunks lose the heap once a run before it shifts it").isLessThan(paired / 4);
  }

  /** At the largest chunk size a run is cut at 4 MiB of address, decided before it is read (nothing pushed back). */
  @Test
  void atTheLargestChunkSizeRunsStartChunksOfTheirOwn() throws IOException {
    byte[] heap = ChunkingTest.random(new Random(70), 6 << 20);
    Path d = dump("large", CriuImages.pagemap(1).present(HEAP, heap.length / PAGE).bytes(), heap);
    byte[] tar = TarImages.stream(d).readAllBytes();
    List<ChunkingTest.Cut> cuts = ChunkingTest.cut(Chunking.ALIGNED, tar, ChunkSize.MAX);
    assertThat(cuts).extracting(ChunkingTest.Cut::length).as("the heap's two chunks: up to 4 MiB of address, then the rest")
        .contains(4 << 20, 2 << 20);
  }

  @Test
  void aPagesFileShorterThanItsPagemapSays_isCutPlainlyAndLosesNothing() throws IOException {
    Random r = new Random(68);
    byte[] heap = ChunkingTest.random(r, 40 * PAGE);
    Path d = dump("short", CriuImages.pagemap(1).present(HEAP, 41).bytes(), heap);
    assertPlain(d);
  }

  @Test
  void aMalformedPagemap_leavesItsPagesCutPlainlyAndLosesNothing() throws IOException {
    Random r = new Random(69);
    byte[] heap = ChunkingTest.random(r, 40 * PAGE);
    byte[] outOfOrder = CriuImages.pagemap(1).present(HEAP + 20 * PAGE, 20).present(HEAP, 20).bytes();
    assertPlain(dump("unordered", outOfOrder, heap));
    byte[] whole = CriuImages.pagemap(1).present(HEAP, 40).bytes();
    assertPlain(dump("truncated", java.util.Arrays.copyOf(whole, whole.length - 3), heap));
    assertPlain(dump("other-set", CriuImages.pagemap(2).present(HEAP, 40).bytes(), heap));
    Path twice = dump("named-twice", whole, heap);
    Files.write(twice.resolve("pagemap-4243.img"), whole); // a second pagemap naming the same page set, as large
    assertPlain(twice);
  }

  /** A directory dumped into before keeps a gone process's pagemap: the one that adds up to the pages file wins. */
  @Test
  void aStalePagemapNamingTheSamePageSet_isPassedOverForTheOneThatFitsThePagesFile() throws IOException {
    Random r = new Random(71);
    byte[] heap = ChunkingTest.random(r, 40 * PAGE);
    Path d = dump("stale", CriuImages.pagemap(1).present(HEAP, 40).bytes(), heap);
    Files.write(d.resolve("pagemap-17.img"), CriuImages.pagemap(1).present(STACK, 7).bytes()); // sorts before 4242
    Map<Long, Chunk> chunks = chunksByLocator(TarImages.stream(d).readAllBytes());
    assertThat(chunks.keySet()).extracting(k -> k & ADDRESS_BITS).as("keyed along the live pagemap, not the stale one")
        .contains(HEAP).noneMatch(a -> a >= STACK);
  }

  private void assertPlain(Path dump) throws IOException {
    byte[] tar = TarImages.stream(dump).readAllBytes();
    ChunkingTest.cut(Chunking.ALIGNED, tar, S); // reassembles
    assertThat(chunksByLocator(tar)).as("no chunk keyed by a memory address").isEmpty();
  }

  /** A CRIU-like dump directory: the pagemap of page set 1, its pages, and the small images around them. */
  private Path dump(String name, byte[] pagemap, byte[]... runs) throws IOException {
    Path d = Files.createDirectories(dir.resolve(name));
    Files.write(d.resolve("core-4242.img"), new byte[] {0x19, 0x43, 0x56, 0x54, 1, 2, 3});
    Files.write(d.resolve("mm-4242.img"), new byte[300]);
    Files.write(d.resolve("pagemap-4242.img"), pagemap);
    java.io.ByteArrayOutputStream pages = new java.io.ByteArrayOutputStream();
    for (byte[] run : runs) {
      pages.writeBytes(run);
    }
    Files.write(d.resolve("pages-1.img"), pages.toByteArray());
    Files.write(d.resolve("pstree.img"), new byte[40]);
    return d;
  }

  private static Map<Long, Chunk> chunksByLocator(byte[] tar) throws IOException {
    Chunker c = Chunking.ALIGNED.chunker(new ByteArrayInputStream(tar), S, () -> new byte[S]);
    Map<Long, Chunk> out = new HashMap<>();
    Chunk ch;
    while ((ch = c.next()) != null) {
      if (ch.address() >= 0 && (ch.address() & ImageLayout.HEADER_TAG) == 0) { // memory: not a member's locator
        assertThat(out.put(ch.address(), ch)).as("one chunk per locator").isNull();
      }
    }
    return out;
  }

  private static ChunkId id(Chunk c) {
    return ChunkId.of(c.data(), 0, c.length());
  }
}
