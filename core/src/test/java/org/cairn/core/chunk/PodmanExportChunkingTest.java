package org.cairn.core.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.archivers.tar.TarUtils;
import org.cairn.core.hash.ChunkId;
import org.junit.jupiter.api.Test;

/**
 * A Podman checkpoint export stored as a file (a tar of {@code checkpoint/} beside {@code config.dump}, {@code spec.dump}
 * and the rootfs diff): its {@code checkpoint/pages-*.img} members are cut along their pagemaps at page offsets from each
 * member's data start, keyed by address, so the next export's chunks pair with this one's whatever the members before
 * them grew by. Tars that are not exports, cut short, or whose headers lie (a malformed pagemap, links named as pages,
 * sizes of 2^31, negative or absurd) are cut plainly or from the bad header on as fixed chunks, and always reassemble.
 */
class PodmanExportChunkingTest {
  private static final int S = 256 * 1024;
  private static final int PAGE = CriuPagemap.PAGE;
  private static final long HEAP = 0x55d0_0040_0000L;
  private static final long STACK = 0x7ffd_1234_5000L;
  private static final long ADDRESS_BITS = (1L << 48) - 1;

  /** One member of a synthetic tar: a regular file unless {@code type} says otherwise. */
  private record Member(String name, byte type, String link, byte[] data) {
    static Member file(String name, byte[] data) {
      return new Member(name, TarConstants.LF_NORMAL, null, data);
    }
  }

  @Test
  void anExportsPagesAreCutAlongThePagemap_andPairByAddressWithTheNextExportsAfterItsConfigGrew() throws IOException {
    Random r = new Random(71);
    byte[] heap = ChunkingTest.random(r, 200 * PAGE);
    byte[] stack = ChunkingTest.random(r, 8 * PAGE);
    byte[] heap2 = heap.clone();
    System.arraycopy(ChunkingTest.random(r, 3 * PAGE), 0, heap2, 50 * PAGE, 3 * PAGE); // rewritten between checkpoints
    byte[] map = CriuImages.pagemap(1).present(HEAP, 200).present(STACK, 8).bytes();
    byte[] first = export(ChunkingTest.random(r, 1000), map, concat(heap, stack));
    byte[] second = export(ChunkingTest.random(r, 1700), map, concat(heap2, stack)); // config.dump 700 bytes longer

    Map<Long, Chunk> before = chunksByLocator(first);
    Map<Long, Chunk> after = chunksByLocator(second);
    assertThat(before.keySet()).extracting(k -> k & ADDRESS_BITS).as("each run starts a chunk, then every 64 KiB of address")
        .contains(HEAP, HEAP + S / 4, STACK);
    long paired = 0;
    for (Map.Entry<Long, Chunk> e : before.entrySet()) {
      long a = e.getKey() & ADDRESS_BITS;
      assertThat(a % PAGE).as("chunks of pages start at a page").isZero();
      Chunk next = after.get(e.getKey());
      assertThat(next).as("the chunk at 0x%x in the next export", a).isNotNull();
      boolean rewritten = a < HEAP + 53 * PAGE && HEAP + 50 * PAGE < a + e.getValue().length();
      assertThat(id(next).equals(id(e.getValue()))).as("chunk at 0x%x unchanged unless rewritten", a).isEqualTo(!rewritten);
      paired += rewritten ? 0 : next.length();
    }
    assertThat(paired).as("all but the rewritten chunk").isGreaterThanOrEqualTo(heap.length + stack.length - S / 4);
    long fixedShared = ChunkingTest.shared(ChunkingTest.cut(Chunking.FIXED, first, S), ChunkingTest.cut(Chunking.FIXED, second, S));
    assertThat(fixedShared).as("fixed chunks lose the pages once config.dump shifts them by 700 bytes").isLessThan(paired / 4);
  }

  @Test
  void eachMembersChunksCarryALocatorOfItsName_soTheNextExportsSameFileIsADeltaOfItWhateverItsHeaderSays()
      throws IOException {
    Random r = new Random(77);
    byte[] config = ChunkingTest.random(r, 23_000);
    byte[] log = ChunkingTest.random(r, 3000);
    Map<Long, byte[]> first = memberChunks(tar(List.of(Member.file("config.dump", config), Member.file("ctr.log", log))), 1000L);
    Map<Long, byte[]> second = memberChunks(tar(List.of(Member.file("config.dump", config),
        Member.file("ctr.log", concat(log, ChunkingTest.random(r, 100))))), 2000L); // a later mtime, a longer log
    assertThat(first).as("one chunk per member: its header, data and padding").hasSize(2);
    assertThat(second.keySet()).as("the same locators").isEqualTo(first.keySet());
    for (Map.Entry<Long, byte[]> e : first.entrySet()) {
      byte[] next = second.get(e.getKey());
      int differing = 0;
      for (int i = 0; i < Math.min(next.length, e.getValue().length); i++) {
        differing += next[i] != e.getValue()[i] ? 1 : 0;
      }
      assertThat(e.getKey() & ImageLayout.HEADER_TAG).as("never a memory address").isNotZero();
      assertThat(differing).as("the chunk at locator %x differs in its header (mtime, size, checksum) and the log's 100 new "
          + "bytes only", e.getKey()).isBetween(1, 130);
    }
  }

  /** The chunks of {@code tar} by locator, after setting every member's mtime to {@code mtime}. */
  private static Map<Long, byte[]> memberChunks(byte[] tar, long mtime) throws IOException {
    byte[] t = tar.clone();
    for (int at = 0; at + TarLayout.BLOCK <= t.length; at += TarLayout.BLOCK) {
      byte[] block = Arrays.copyOfRange(t, at, at + TarLayout.BLOCK);
      if (TarLayout.size(block) >= 0) {
        TarUtils.formatLongOctalBytes(mtime, block, 136, 12);
        System.arraycopy(checksummed(block), 0, t, at, block.length);
        at += (int) ((TarLayout.size(block) + TarLayout.BLOCK - 1) / TarLayout.BLOCK * TarLayout.BLOCK);
      }
    }
    Map<Long, byte[]> out = new HashMap<>();
    Chunker c = Chunking.ALIGNED.chunker(new ByteArrayInputStream(t), S, () -> new byte[S]);
    for (Chunk ch = c.next(); ch != null; ch = c.next()) {
      if (ch.address() >= 0) {
        assertThat(out.put(ch.address(), Arrays.copyOf(ch.data(), ch.length()))).isNull();
      }
    }
    return out;
  }

  @Test
  void aTarThatIsNoExport_isCutAtItsMembersWithNoAddresses() throws IOException {
    Random r = new Random(72);
    byte[] tar = tar(List.of(Member.file("notes/a.txt", ChunkingTest.random(r, 300_000)),
        Member.file("notes/pages.img", ChunkingTest.random(r, 40 * PAGE)), Member.file("z.bin", ChunkingTest.random(r, 5000))));
    List<ChunkingTest.Cut> cuts = ChunkingTest.cut(Chunking.ALIGNED, tar, S);
    assertThat(cuts).extracting(ChunkingTest.Cut::offset).as("each member's header starts a chunk").contains(0L, 512L + 300_032);
    assertThat(chunksByLocator(tar)).as("no memory").isEmpty();
  }

  @Test
  void anExportCutShortAnywhere_isCutToItsEndAndLosesNothing() throws IOException {
    Random r = new Random(73);
    byte[] heap = ChunkingTest.random(r, 100 * PAGE);
    byte[] whole = export(ChunkingTest.random(r, 900), CriuImages.pagemap(1).present(HEAP, 100).bytes(), heap);
    int pagesData = indexOf(whole, heap);
    for (int end : new int[] {100, 511, 512, 1000, pagesData - 700, pagesData - 512, pagesData + 5 * PAGE + 17, whole.length - 1024}) {
      ChunkingTest.cut(Chunking.ALIGNED, Arrays.copyOf(whole, end), S); // reassembles, whatever the end
    }
    assertThat(chunksByLocator(Arrays.copyOf(whole, pagesData + 5 * PAGE + 17)).keySet()).extracting(k -> k & ADDRESS_BITS)
        .as("pages read before the end are still keyed by address").contains(HEAP);
  }

  @Test
  void anExportWhosePagemapIsMalformedOrDoesNotMatch_hasItsPagesCutPlainly() throws IOException {
    Random r = new Random(74);
    byte[] heap = ChunkingTest.random(r, 40 * PAGE);
    byte[] whole = CriuImages.pagemap(1).present(HEAP, 40).bytes();
    for (byte[] map : List.of(Arrays.copyOf(whole, whole.length - 3), CriuImages.pagemap(1).present(HEAP, 41).bytes(),
        CriuImages.pagemap(1).present(HEAP + 20 * PAGE, 20).present(HEAP, 20).bytes(), ChunkingTest.random(r, 300))) {
      assertPlain(export(new byte[10], map, heap));
    }
  }

  @Test
  void membersNamedAsPagesOrPagemapsThatAreLinks_areNotReadAsThem_andALinksForgedSizeDoesNotDerailTheLayout()
      throws IOException {
    Random r = new Random(75);
    byte[] heap = ChunkingTest.random(r, 40 * PAGE);
    byte[] map = CriuImages.pagemap(1).present(HEAP, 40).bytes();
    List<Member> members = new ArrayList<>(List.of(
        new Member("checkpoint", TarConstants.LF_SYMLINK, "/etc", new byte[0]), // a directory name through a symlink
        new Member("checkpoint/pagemap-0.img", TarConstants.LF_SYMLINK, "pagemap-1.img", new byte[0]),
        Member.file("checkpoint/pagemap-1.img", map),
        new Member("checkpoint/pages-0.img", TarConstants.LF_LINK, "checkpoint/pages-1.img", new byte[0]),
        Member.file("checkpoint/pages-1.img", heap)));
    byte[] tar = tar(members);
    // the hard link's header claims the pages' size: a reader that skipped that much would miss the real pages' header
    byte[] forged = withSize(tar, headerOf(tar, "checkpoint/pages-0.img"), heap.length);
    for (byte[] t : List.of(tar, forged)) {
      Map<Long, Chunk> keyed = chunksByLocator(t);
      assertThat(keyed.keySet()).extracting(k -> k & ADDRESS_BITS).as("the real pages, cut along the real pagemap").contains(HEAP);
      ChunkingTest.cut(Chunking.ALIGNED, t, S);
    }
    members.set(2, new Member("checkpoint/pagemap-1.img", TarConstants.LF_SYMLINK, "../x", new byte[0]));
    assertPlain(tar(members));
  }

  @Test
  void sizesOf2To31_negativeOrAbsurd_areReadAsTheySayOrEndTheLayout_neverAnOutOfMemory() throws IOException {
    Random r = new Random(76);
    byte[] heap = ChunkingTest.random(r, 40 * PAGE);
    byte[] map = CriuImages.pagemap(1).present(HEAP, 40).bytes();
    byte[] tar = export(new byte[10], map, heap);
    int pagemapHeader = headerOf(tar, "checkpoint/pagemap-1.img");
    int pagesHeader = headerOf(tar, "checkpoint/pages-1.img");
    // a pagemap of 2^31 bytes is not read (the tar ends long before): its pages are cut plainly
    assertPlain(withSize(tar, pagemapHeader, 1L << 31));
    // pages of 2^31 bytes do not match a pagemap of 40 pages; of 2^31 - 1 bytes neither
    assertPlain(withSize(tar, pagesHeader, 1L << 31));
    assertPlain(withSize(tar, pagesHeader, (1L << 31) - 1));
    // a pagemap that claims 2^31 bytes of pages, over a pages member that claims them: cut along it to where the tar ends
    byte[] huge = CriuImages.pagemap(1).present(HEAP, (1L << 31) / PAGE).bytes();
    byte[] claimed = withSize(export(new byte[10], huge, heap), headerOf(export(new byte[10], huge, heap), "checkpoint/pages-1.img"),
        1L << 31);
    assertThat(chunksByLocator(claimed).keySet()).extracting(k -> k & ADDRESS_BITS).contains(HEAP);
    for (long size : new long[] {-1, -(1L << 31), Long.MAX_VALUE, TarLayout.MAX_MEMBER + 1}) {
      assertPlain(withBinarySize(tar, pagemapHeader, size));
    }
    byte[] badChecksum = tar.clone();
    badChecksum[pagemapHeader + 5] ^= 1; // the name changed, the checksum not
    assertPlain(badChecksum);
  }

  /** Go's archive/tar writes a size past 8 GiB in a PAX extended header, and 0 in the ustar field. */
  @Test
  void pagesPast8GiB_whoseSizeIsInAPaxHeaderAsGoWritesIt_areCutAlongThePagemap() throws IOException {
    Random r = new Random(78);
    byte[] heap = ChunkingTest.random(r, 40 * PAGE);
    long big = (8L << 30) + heap.length;
    byte[] map = CriuImages.pagemap(1).present(HEAP, big / PAGE).bytes();
    String record = " size=" + big + "\n";
    record = (record.length() + 2) + record; // the record's length counts its own two digits
    for (boolean withPax : new boolean[] {true, false}) {
      List<Member> members = new ArrayList<>(List.of(Member.file("checkpoint/pagemap-1.img", map),
          Member.file("checkpoint/pages-1.img", heap), Member.file("checkpoint/pstree.img", new byte[36])));
      if (withPax) {
        members.add(1, new Member("PaxHeaders.0/pages-1.img", TarConstants.LF_PAX_EXTENDED_HEADER_LC, null,
            record.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
      }
      byte[] tar = tar(members);
      byte[] goStyle = withSize(tar, headerOf(tar, "checkpoint/pages-1.img"), 0);
      ChunkingTest.cut(Chunking.ALIGNED, goStyle, S); // reassembles
      assertThat(chunksByLocator(goStyle).keySet()).extracting(k -> k & ADDRESS_BITS).as("with a PAX size: %s", withPax)
          .is(new org.assertj.core.api.Condition<>(keys -> keys.contains(HEAP) == withPax, "keyed by address iff the PAX size is read"));
    }
    byte[] bad = tar(List.of(new Member("PaxHeaders.0/f", TarConstants.LF_PAX_EXTENDED_HEADER_LC, null,
        "99 size=12\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)), Member.file("f", new byte[12])));
    byte[] header = Arrays.copyOfRange(bad, headerOf(bad, "f"), headerOf(bad, "f") + TarLayout.BLOCK);
    assertThat(TarLayout.withPax(Arrays.copyOf(bad, 2 * TarLayout.BLOCK), header))
        .as("a PAX header whose record does not read leaves the ustar fields").isNull();
  }

  @Test
  void aHeadersSizeField_isReadAsOctalOrBase256_andRefusedWhenNegativeOrAbsurd() {
    byte[] block = new byte[TarLayout.BLOCK];
    TarUtils.formatNameBytes("f", block, 0, 100);
    block[156] = '0';
    assertThat(TarLayout.size(setSize(block.clone(), 1L << 31))).isEqualTo(1L << 31);
    assertThat(TarLayout.size(setBinarySize(block.clone(), 1L << 40))).isEqualTo(1L << 40);
    assertThat(TarLayout.size(setBinarySize(block.clone(), -5))).isEqualTo(-1);
    assertThat(TarLayout.size(setBinarySize(block.clone(), TarLayout.MAX_MEMBER + 1))).isEqualTo(-1);
    assertThat(TarLayout.size(new byte[TarLayout.BLOCK])).as("the archive's end").isEqualTo(-1);
    assertThat(TarLayout.size(ChunkingTest.random(new Random(79), TarLayout.BLOCK))).as("random bytes").isEqualTo(-1);
    byte[] letters = setSize(block.clone(), 0);
    System.arraycopy("12x4".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, letters, 124, 4);
    assertThat(TarLayout.size(checksummed(letters))).as("not a number").isEqualTo(-1);
  }

  private static void assertPlain(byte[] tar) throws IOException {
    ChunkingTest.cut(Chunking.ALIGNED, tar, S); // reassembles
    assertThat(chunksByLocator(tar)).as("no chunk keyed by a memory address").isEmpty();
  }

  /** A Podman-like export: members in the order Podman writes them, CRIU's images sorted by name under checkpoint/. */
  private static byte[] export(byte[] config, byte[] pagemap, byte[] pages) throws IOException {
    return tar(List.of(new Member("artifacts/", TarConstants.LF_DIR, null, new byte[0]),
        Member.file("devshm-checkpoint.tar", new byte[1536]), Member.file("config.dump", config),
        Member.file("spec.dump", new byte[777]), Member.file("ctr.log", "tick 1\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)),
        new Member("checkpoint/", TarConstants.LF_DIR, null, new byte[0]), Member.file("checkpoint/core-1.img", new byte[2270]),
        Member.file("checkpoint/inventory.img", new byte[86]), Member.file("checkpoint/pagemap-1.img", pagemap),
        Member.file("checkpoint/pages-1.img", pages), Member.file("checkpoint/pstree.img", new byte[36]),
        Member.file("rootfs-diff.tar", new byte[3072])));
  }

  private static byte[] tar(List<Member> members) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (TarArchiveOutputStream t = new TarArchiveOutputStream(out)) {
      for (Member m : members) {
        TarArchiveEntry e = new TarArchiveEntry(m.name(), m.type());
        if (m.link() != null) {
          e.setLinkName(m.link());
        }
        if (m.type() == TarConstants.LF_NORMAL || m.type() == TarConstants.LF_PAX_EXTENDED_HEADER_LC) {
          e.setSize(m.data().length);
        }
        t.putArchiveEntry(e);
        t.write(m.data());
        t.closeArchiveEntry();
      }
    }
    return out.toByteArray();
  }

  /** The offset of the header of member {@code name}. */
  private static int headerOf(byte[] tar, String name) {
    for (int at = 0; at + TarLayout.BLOCK <= tar.length; at += TarLayout.BLOCK) {
      if (TarUtils.parseName(tar, at, 100).equals(name) && TarUtils.verifyCheckSum(Arrays.copyOfRange(tar, at, at + 512))) {
        return at;
      }
    }
    throw new AssertionError("no member " + name);
  }

  private static byte[] withSize(byte[] tar, int header, long size) {
    byte[] t = tar.clone();
    byte[] block = setSize(Arrays.copyOfRange(t, header, header + TarLayout.BLOCK), size);
    System.arraycopy(block, 0, t, header, block.length);
    return t;
  }

  private static byte[] withBinarySize(byte[] tar, int header, long size) {
    byte[] t = tar.clone();
    byte[] block = setBinarySize(Arrays.copyOfRange(t, header, header + TarLayout.BLOCK), size);
    System.arraycopy(block, 0, t, header, block.length);
    return t;
  }

  private static byte[] setSize(byte[] block, long size) {
    TarUtils.formatLongOctalBytes(size, block, 124, 12);
    return checksummed(block);
  }

  /** The size as base-256 (GNU's form past 8 GiB): 0x80 (or 0xff when negative), then the two's complement, big-endian. */
  private static byte[] setBinarySize(byte[] block, long size) {
    block[124] = (byte) (size < 0 ? 0xff : 0x80);
    for (int i = 0; i < 11; i++) {
      block[135 - i] = (byte) (i < 8 ? size >> (8 * i) : size < 0 ? 0xff : 0);
    }
    return checksummed(block);
  }

  private static byte[] checksummed(byte[] block) {
    Arrays.fill(block, 148, 156, (byte) ' ');
    TarUtils.formatCheckSumOctalBytes(TarUtils.computeCheckSum(block), block, 148, 8);
    return block;
  }

  private static int indexOf(byte[] in, byte[] part) {
    for (int i = 0; i + part.length <= in.length; i += TarLayout.BLOCK) {
      if (Arrays.equals(in, i, i + part.length, part, 0, part.length)) {
        return i;
      }
    }
    throw new AssertionError("not found");
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static Map<Long, Chunk> chunksByLocator(byte[] tar) throws IOException {
    Chunker c = Chunking.ALIGNED.chunker(new ByteArrayInputStream(tar), S, () -> new byte[S]);
    Map<Long, Chunk> out = new HashMap<>();
    for (Chunk ch = c.next(); ch != null; ch = c.next()) {
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
