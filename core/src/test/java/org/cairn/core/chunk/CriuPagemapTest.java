package org.cairn.core.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pagemap parser reads what CRIU writes and refuses, naming why, anything else. */
class CriuPagemapTest {
  private static final long HEAP = 0x55d0_0000_0000L;

  @Test
  void aPagemapGivesItsPageSetAndRunsWithWhichArePresent() throws Exception {
    byte[] img = CriuImages.pagemap(7).present(HEAP, 3).entry(HEAP + 0x10000, 2, CriuPagemap.PE_PARENT)
        .entry(HEAP + 0x20000, 1, CriuPagemap.PE_PRESENT | 2).present(0x7ffd_0000_0000L, 5).bytes();
    CriuPagemap.Pagemap map = CriuPagemap.parse(img, img.length);
    assertThat(map.pagesId()).isEqualTo(7);
    assertThat(map.pagesFile()).isEqualTo("pages-7.img");
    assertThat(map.runs()).containsExactly(new CriuPagemap.Run(HEAP, 3, true), new CriuPagemap.Run(HEAP + 0x10000, 2, false),
        new CriuPagemap.Run(HEAP + 0x20000, 1, true), new CriuPagemap.Run(0x7ffd_0000_0000L, 5, true));
    assertThat(map.presentBytes()).isEqualTo(9L * CriuPagemap.PAGE);
  }

  @Test
  void anOlderEntryWithoutFlagsIsPresentUnlessInItsParent() throws Exception {
    byte[] img = CriuImages.pagemap(1)
        .message(CriuImages.field(1, HEAP), CriuImages.field(2, 4))
        .message(CriuImages.field(1, HEAP + 0x8000), CriuImages.field(2, 1), CriuImages.field(3, 1))
        .message(CriuImages.field(1, HEAP + 0x9000), CriuImages.field(2, 2), CriuImages.field(9, 42)).bytes();
    List<CriuPagemap.Run> runs = CriuPagemap.parse(img, img.length).runs();
    assertThat(runs).extracting(CriuPagemap.Run::present).containsExactly(true, false, true);
    assertThat(runs).extracting(CriuPagemap.Run::pages).containsExactly(4L, 1L, 2L);
  }

  @Test
  void aLengthOfTwoToTheThirtyFirstIsRefused() {
    byte[] img = CriuImages.pagemap(1).raw(CriuImages.le(Integer.MIN_VALUE)).raw(new byte[64]).bytes();
    assertRefused(img, "length 2147483648 is not a pagemap message's");
  }

  @Test
  void aTruncatedEntryIsRefused() {
    byte[] whole = CriuImages.pagemap(1).present(HEAP, 3).present(HEAP + 0x10000, 3).bytes();
    assertRefused(Arrays.copyOf(whole, whole.length - 2), "truncated");
    assertRefused(Arrays.copyOf(whole, whole.length - 12), "truncated");
  }

  @Test
  void aVaddrOffAPageIsRefused() {
    assertRefused(CriuImages.pagemap(1).present(HEAP + 12, 1).bytes(), "vaddr 0x55d00000000c is not a page-aligned");
  }

  @Test
  void aPageCountThatOverflowsOrIsZeroIsRefused() {
    assertRefused(CriuImages.pagemap(1).present(HEAP, Long.MAX_VALUE / 2).bytes(), "is no run of user-space memory");
    assertRefused(CriuImages.pagemap(1).present(HEAP, -1L).bytes(), "is no run of user-space memory");
    assertRefused(CriuImages.pagemap(1).present(HEAP, 0).bytes(), "0 pages");
  }

  @Test
  void entriesOutOfOrderOrOverlappingAreRefused() {
    assertRefused(CriuImages.pagemap(1).present(HEAP + 0x10000, 1).present(HEAP, 1).bytes(), "out of order or overlapping");
    assertRefused(CriuImages.pagemap(1).present(HEAP, 4).present(HEAP + 0x3000, 1).bytes(), "out of order or overlapping");
  }

  @Test
  void otherFilesAndMissingFieldsAreRefused() {
    assertRefused(new byte[] {1, 2, 3}, "not a CRIU pagemap image");
    byte[] noHead = CriuImages.pagemap(1).bytes();
    assertRefused(Arrays.copyOf(noHead, 8), "no pagemap head");
    assertRefused(CriuImages.pagemap(1).message(CriuImages.field(1, HEAP)).bytes(), "entry 0: no nr_pages");
    assertRefused(CriuImages.pagemap(1).message(new byte[] {(byte) 0x0b}).bytes(), "wire type 3");
    assertRefused(CriuImages.pagemap(1).message(new byte[] {0x08, (byte) 0x80}).bytes(), "varint runs past");
    assertRefused(CriuImages.pagemap(1).message(new byte[] {0x12, 0x7f}).bytes(), "runs past the message's end");
  }

  private static void assertRefused(byte[] img, String why) {
    assertThatThrownBy(() -> CriuPagemap.parse(img, img.length)).isInstanceOf(CriuPagemap.Malformed.class)
        .hasMessageContaining(why);
  }
}
