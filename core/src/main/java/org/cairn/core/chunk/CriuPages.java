package org.cairn.core.chunk;

import java.util.List;

/**
 * A CRIU {@code pages-ID.img} cut along its pagemap ({@link CriuPagemap}): the file is the present runs' pages back to
 * back, so each byte's virtual address is known. A chunk starts where the memory is not contiguous with the byte
 * before it (a new run of pages) and wherever the address is a multiple of the area grain, as a DMTCP area is cut
 * ({@link ImageLayout.Dmtcp}); each chunk's locator is its first page's address, so a successor dump's chunk at the
 * same address is its delta base whatever moved in the file before it.
 */
final class CriuPages extends ImageLayout {
  private final int grain;
  /** Per present run: its offset in the pages file, its address, its length in bytes. */
  private final long[] fileStart;
  private final long[] address;
  private final long[] length;
  private final long total;

  CriuPages(List<CriuPagemap.Run> runs, int grain) {
    this.grain = grain;
    List<CriuPagemap.Run> present = runs.stream().filter(CriuPagemap.Run::present).toList();
    fileStart = new long[present.size()];
    address = new long[present.size()];
    length = new long[present.size()];
    long at = 0;
    for (int i = 0; i < present.size(); i++) {
      fileStart[i] = at;
      address[i] = present.get(i).vaddr();
      length[i] = present.get(i).bytes();
      at += length[i];
    }
    total = at;
  }

  /** The run holding the file's byte at {@code offset}; -1 past the last. */
  private int runAt(long offset) {
    if (offset < 0 || offset >= total) {
      return -1;
    }
    int i = java.util.Arrays.binarySearch(fileStart, offset);
    return i >= 0 ? i : -i - 2;
  }

  @Override
  long regionAt(long offset) {
    int i = runAt(offset);
    if (i < 0) {
      return REST;
    }
    long into = offset - fileStart[i];
    return Math.min(length[i] - into, toAligned(address[i] + into, grain));
  }

  @Override
  boolean startsChunk(long offset, byte[] data, int at, int n) {
    int i = runAt(offset);
    if (i < 0) {
      return false;
    }
    long a = address[i] + (offset - fileStart[i]);
    boolean newRun = offset == fileStart[i] && (i == 0 || address[i - 1] + length[i - 1] != a);
    return newRun || (a & (grain - 1)) == 0;
  }

  @Override
  long addressAt(long offset) {
    int i = runAt(offset);
    return i < 0 ? -1 : address[i] + (offset - fileStart[i]);
  }

  @Override
  String name() {
    return "criu-pages";
  }
}
