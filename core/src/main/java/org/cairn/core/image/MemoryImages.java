package org.cairn.core.image;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * Seeded synthetic process-memory images, for tests and for {@code cairn benchmark} when no real
 * image is given. The page mix follows what core dumps of scientific codes look like: runs of zero
 * pages (untouched heap, bss), arrays of doubles that change slowly, arrays of small integers,
 * text (strings, symbol tables) and incompressible pages (random state, compressed buffers).
 * Real images measured with gcore are described in docs/chunk-size.md; this generator is the
 * stand-in when none is at hand.
 */
public final class MemoryImages {
  public static final int PAGE = 4096;

  private MemoryImages() {}

  /** An image of {@code size} bytes (rounded down to whole pages) for {@code seed}. */
  public static byte[] image(long seed, int size) {
    byte[] out = new byte[size - size % PAGE];
    SplittableRandom random = new SplittableRandom(seed);
    int pages = out.length / PAGE;
    int p = 0;
    while (p < pages) {
      // Regions of 1..64 pages of one kind, as allocators lay out like objects together.
      int run = Math.min(pages - p, 1 + random.nextInt(64));
      int kind = random.nextInt(100);
      for (int i = 0; i < run; i++) {
        fillPage(out, (p + i) * PAGE, kind, random);
      }
      p += run;
    }
    return out;
  }

  /**
   * The next image of the same process: {@code changedFraction} of the pages rewritten, in
   * clustered regions (the heap areas the computation touched since the last checkpoint).
   */
  public static byte[] successor(byte[] previous, double changedFraction, long seed) {
    byte[] out = previous.clone();
    SplittableRandom random = new SplittableRandom(seed);
    int pages = out.length / PAGE;
    long target = Math.round(pages * changedFraction);
    long changed = 0;
    while (changed < target) {
      int run = (int) Math.min(target - changed, 1 + random.nextInt(256));
      int start = random.nextInt(Math.max(1, pages - run + 1));
      int kind = random.nextInt(100);
      for (int i = 0; i < run; i++) {
        fillPage(out, (start + i) * PAGE, kind, random);
      }
      changed += run;
    }
    return out;
  }

  private static void fillPage(byte[] out, int off, int kind, SplittableRandom random) {
    if (kind < 30) {
      java.util.Arrays.fill(out, off, off + PAGE, (byte) 0);
    } else if (kind < 55) {
      // doubles of a smooth field: high bytes repeat, low bytes vary
      ByteBuffer b = ByteBuffer.wrap(out, off, PAGE).order(ByteOrder.LITTLE_ENDIAN);
      double x = random.nextDouble() * 100;
      double dx = random.nextDouble() * 0.01;
      for (int i = 0; i < PAGE / 8; i++) {
        b.putDouble(x + i * dx + (random.nextInt(16) == 0 ? random.nextDouble() * 1e-6 : 0));
      }
    } else if (kind < 75) {
      // small ints and pointers into a narrow range
      ByteBuffer b = ByteBuffer.wrap(out, off, PAGE).order(ByteOrder.LITTLE_ENDIAN);
      long base = 0x7f00_0000_0000L + (random.nextLong() & 0xFFFF_F000L);
      for (int i = 0; i < PAGE / 8; i++) {
        b.putLong(random.nextBoolean() ? random.nextInt(1000) : base + random.nextInt(1 << 20) * 16L);
      }
    } else if (kind < 87) {
      // text: words from a small vocabulary
      String[] words = {"checkpoint ", "restart ", "rank ", "iteration ", "residual=", "0.000", "grid ", "\n", "MPI_", "error "};
      int i = off;
      while (i < off + PAGE) {
        byte[] w = words[random.nextInt(words.length)].getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        int n = Math.min(w.length, off + PAGE - i);
        System.arraycopy(w, 0, out, i, n);
        i += n;
      }
    } else {
      for (int i = off; i < off + PAGE; i += 8) {
        long v = random.nextLong();
        for (int j = 0; j < 8; j++) {
          out[i + j] = (byte) (v >>> (8 * j));
        }
      }
    }
  }

  /**
   * A DMTCP 5 checkpoint image (as written with {@code --no-gzip}) of a process whose memory areas
   * are {@code areas} at {@code addresses}: the two checkpoint headers, then per area a parent header
   * and a child header followed by its bytes, then the end marker. What the aligned chunker reads as
   * a DMTCP image, for tests and benchmarks without DMTCP.
   */
  public static byte[] dmtcp(long[] addresses, byte[]... areas) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    byte[] header = new byte[PAGE];
    byte[] sig = "DMTCP_CHECKPOINT_IMAGE_v4.0\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    System.arraycopy(sig, 0, header, 0, sig.length);
    header[100] = (byte) areas.length;
    out.writeBytes(header);
    out.writeBytes(header);
    for (int i = 0; i < areas.length; i++) {
      out.writeBytes(areaHeader(addresses[i], areas[i].length, 0x2));
      out.writeBytes(areaHeader(addresses[i], areas[i].length, 0x4));
      out.writeBytes(areas[i]);
    }
    out.writeBytes(areaHeader(0, -1, 0));
    return out.toByteArray();
  }

  private static byte[] areaHeader(long address, long size, long properties) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(PAGE).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    b.putLong(0, address).putLong(8, address + size).putLong(16, size).putLong(40, 0x22).putLong(80, properties);
    return b.array();
  }
}
