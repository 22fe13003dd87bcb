package org.cairn.core.chunk;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Content-defined chunking, FastCDC (Xia et al., USENIX ATC 2016): a gear rolling hash
 * {@code fp = (fp << 1) + G[byte]} and a cut where the hash's top bits are zero, with normalised
 * chunking (a stricter mask before the average size, a looser one after). Sizes run from S/4 to 2S
 * around an average near S, so an insertion or a grown area moves only the cuts next to it: later
 * chunks re-synchronise and deduplicate. Reads the image in 64 KiB steps and scans each step as it
 * arrives, so what follows a cut (at most a step past the scan) is the only copy made. Not thread-safe.
 */
public final class CdcChunker implements Chunker {
  private static final int STEP = 64 * 1024;
  private static final long[] GEAR = gear();

  private final InputStream in;
  private final int min;
  private final int avg;
  private final int max;
  private final long maskSmall;
  private final long maskLarge;
  private final Supplier<byte[]> buffers;
  private final byte[] carry;
  private int carried;
  private long index;
  private long offset;
  private boolean eof;

  public CdcChunker(InputStream in, int chunkSize, Supplier<byte[]> buffers) {
    this.in = Objects.requireNonNull(in, "in");
    this.avg = ChunkSize.validate(chunkSize);
    this.min = avg / 4;
    this.max = maxFor(avg);
    int bits = Integer.numberOfTrailingZeros(avg);
    this.maskSmall = topBits(bits + 2);
    this.maskLarge = topBits(bits - 2);
    this.buffers = buffers != null ? buffers : () -> new byte[this.max];
    this.carry = new byte[this.max];
  }

  /** The largest chunk for nominal size {@code chunkSize}. */
  static int maxFor(int chunkSize) {
    return 2 * chunkSize;
  }

  @Override
  public Chunk next() throws IOException {
    if (eof && carried == 0) {
      return null;
    }
    byte[] buf = buffers.get();
    if (buf.length < max) {
      throw new IllegalStateException("chunk buffer of " + buf.length + " bytes is smaller than the largest chunk " + max);
    }
    System.arraycopy(carry, 0, buf, 0, carried);
    int filled = carried;
    carried = 0;
    int pos = min;
    long fp = 0;
    int cut = -1;
    while (cut < 0) {
      if (!eof && filled < max) {
        int want = Math.min(max, Math.max(filled, pos) + STEP) - filled;
        int n = in.readNBytes(buf, filled, want);
        filled += n;
        eof = n < want;
      }
      int end = Math.min(filled, max);
      int normal = Math.min(avg, end);
      for (; pos < normal; pos++) {
        fp = (fp << 1) + GEAR[buf[pos] & 0xff];
        if ((fp & maskSmall) == 0) {
          cut = pos + 1;
          break;
        }
      }
      if (cut < 0) {
        for (; pos < end; pos++) {
          fp = (fp << 1) + GEAR[buf[pos] & 0xff];
          if ((fp & maskLarge) == 0) {
            cut = pos + 1;
            break;
          }
        }
      }
      if (cut < 0 && (filled >= max || eof)) {
        cut = Math.min(filled, max);
      }
    }
    if (cut == 0) {
      return null;
    }
    carried = filled - cut;
    System.arraycopy(buf, cut, carry, 0, carried);
    Chunk c = new Chunk(index++, offset, buf, cut);
    offset += cut;
    return c;
  }

  @Override
  public long bytesRead() {
    return offset;
  }

  private static long topBits(int n) {
    return -1L << (64 - n);
  }

  /** 256 fixed pseudo-random words (SplitMix64 from a constant seed): cuts must not change between builds. */
  private static long[] gear() {
    long[] g = new long[256];
    long x = 0x434149524e434443L; // "CAIRNCDC"
    for (int i = 0; i < g.length; i++) {
      x += 0x9e3779b97f4a7c15L;
      long z = x;
      z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
      z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
      g[i] = z ^ (z >>> 31);
    }
    return g;
  }
}
