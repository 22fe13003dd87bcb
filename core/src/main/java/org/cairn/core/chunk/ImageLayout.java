package org.cairn.core.chunk;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.TreeSet;

/**
 * Where a checkpoint image's regions begin, for {@link AlignedChunker}. Regions are discovered
 * while the image streams past: {@link #regionAt} gives the length of the region starting at an
 * offset, and {@link #observe} sees every chunk (a DMTCP area header names the length of the data
 * that follows it).
 */
abstract class ImageLayout {
  /** Marks the locator of a chunk that starts with an area header (user-space addresses stay far below it). */
  static final long HEADER_TAG = 1L << 62;

  /** A region running to the end of the image. */
  static final long REST = Long.MAX_VALUE;

  /** The length of the region that starts at {@code offset} (at least 1; {@link #REST} for the rest). */
  abstract long regionAt(long offset);

  /**
   * Whether the region starting at {@code offset}, whose first bytes are {@code data[at, at+n)},
   * must start a chunk rather than continue the one being filled. Unless {@link #inspects} says so
   * for that offset, the answer depends on the offset alone (then it is asked before the region is
   * read, with {@code n} 0).
   */
  boolean startsChunk(long offset, byte[] data, int at, int n) {
    return true;
  }

  /** Whether {@link #startsChunk} reads the region's bytes (then it needs the region whole in one chunk). */
  boolean inspects(long offset) {
    return false;
  }

  /** Sees each region's bytes as they are cut: {@code data[at, at+n)} is the image at {@code offset}. */
  void observe(long offset, byte[] data, int at, int n) {}

  abstract String name();

  /**
   * The memory address of the image's byte at {@code offset} when it is memory seen so far (an
   * area's data; for an area header seen by {@link #observe}, the address its data starts at with
   * {@link #HEADER_TAG} set, so a chunk of headers never shares a locator with the data after it); -1
   * otherwise. A chunk's address is what pairs it with the chunk at the same address in the previous
   * checkpoint, whatever moved in the file between them.
   */
  long addressAt(long offset) {
    return -1;
  }

  /**
   * The layout of the image whose first bytes are {@code head[0, n)}, cut into chunks of at most
   * {@code chunkSize}: inside a memory area, cuts fall where the area's virtual address is a
   * multiple of the {@linkplain #areaGrain area grain}, so a page's chunk does not depend on where
   * its mapping starts (mappings grow at either end: a new mmap below an anonymous one merges with it).
   */
  static ImageLayout detect(byte[] head, int n, int chunkSize) {
    int grain = areaGrain(chunkSize);
    if (Dmtcp.matches(head, n)) {
      return new Dmtcp(grain);
    }
    if (TarLayout.matches(head, n)) {
      return new TarLayout(grain);
    }
    ImageLayout elf = ElfCore.parse(head, n, grain);
    return elf != null ? elf : NONE;
  }

  /**
   * Inside a memory area, chunks of a quarter of the chunk size (at least the smallest chunk size):
   * a process rewrites its memory in scattered pages, and on real DMTCP series a quarter finds
   * 27 % fewer new bytes than whole chunks (docs/chunk-size.md) at the same store and fetch times,
   * while headers and files of no known format keep whole chunks.
   */
  static int areaGrain(int chunkSize) {
    return Math.max(ChunkSize.MIN, chunkSize / 4);
  }

  /** Bytes from {@code address} to the next multiple of {@code chunkSize} (a power of two). */
  static long toAligned(long address, int chunkSize) {
    return chunkSize - (address & (chunkSize - 1));
  }

  static final ImageLayout NONE = new ImageLayout() {
    @Override
    long regionAt(long offset) {
      return REST;
    }

    @Override
    String name() {
      return "none";
    }
  };

  /**
   * A DMTCP 5 image ({@code DMTCP_CHECKPOINT_IMAGE_v4.0}, written without gzip): two copies of the
   * 4 KiB checkpoint header, then areas, each a 4 KiB {@code ProcMapsArea} header followed by its
   * data, until a header whose size is -1. Data follows a header unless it is a zero-page or a
   * parent header; a file-backed area holds {@code mmapFileSize} bytes, others {@code size}.
   */
  static final class Dmtcp extends ImageLayout {
    static final byte[] SIGNATURE = "DMTCP_CHECKPOINT_IMAGE_v4.0\n".getBytes(StandardCharsets.US_ASCII);
    static final int HEADERS = 2 * 4096;
    static final int AREA = 4096;
    private static final long ZERO_PAGE = 0x1;
    private static final long PARENT_HEADER = 0x2;
    private static final long CHILD_HEADER = 0x4;
    private static final long MAP_ANONYMOUS = 0x20;
    /** No single area of a desktop process holds more than this; a larger size means a header we misread. */
    private static final long MAX_AREA = 1L << 40;

    private final int chunkSize;
    private long nextHeader = HEADERS;
    private long dataStart = -1;
    private long dataEnd = -1;
    private long dataAddress;
    private boolean ended;
    /** Recent area headers' offsets and the addresses they describe. */
    private final java.util.LinkedHashMap<Long, Long> headers = new java.util.LinkedHashMap<>(32, 0.75f, false) {
      @Override
      protected boolean removeEldestEntry(java.util.Map.Entry<Long, Long> eldest) {
        return size() > 16;
      }
    };

    Dmtcp(int chunkSize) {
      this.chunkSize = chunkSize;
    }

    static boolean matches(byte[] head, int n) {
      return matches(head, 0, n);
    }

    /** Whether {@code data[at, at+n)} starts with a DMTCP image's signature. */
    static boolean matches(byte[] data, int at, int n) {
      return n >= SIGNATURE.length && java.util.Arrays.equals(data, at, at + SIGNATURE.length, SIGNATURE, 0, SIGNATURE.length);
    }

    @Override
    long regionAt(long offset) {
      if (ended) {
        return REST;
      }
      if (offset < HEADERS) {
        return HEADERS - offset;
      }
      if (offset == nextHeader) {
        return AREA;
      }
      if (offset < dataEnd) {
        return Math.min(dataEnd - offset, toAligned(dataAddress + (offset - dataStart), chunkSize));
      }
      ended = true; // lost track (cannot happen with whole headers): fixed chunks from here on
      return REST;
    }

    @Override
    boolean inspects(long offset) {
      return !ended && offset == nextHeader;
    }

    @Override
    boolean startsChunk(long offset, byte[] data, int at, int n) {
      if (offset == HEADERS) {
        return true; // the checkpoint headers (new every checkpoint) keep to themselves
      }
      if (ended) {
        return false;
      }
      if (offset != nextHeader) {
        return offset < HEADERS || offset >= dataStart && offset < dataEnd
            && ((dataAddress + (offset - dataStart)) & (chunkSize - 1)) == 0;
      }
      if (n < AREA) {
        return true;
      }
      long properties = ByteBuffer.wrap(data, at, AREA).order(ByteOrder.LITTLE_ENDIAN).getLong(at + 80);
      return (properties & CHILD_HEADER) == 0;
    }

    @Override
    void observe(long offset, byte[] data, int at, int length) {
      if (ended || offset != nextHeader) {
        return;
      }
      if (length < AREA) {
        ended = true;
        return;
      }
      ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
      long address = b.getLong(at);
      long size = b.getLong(at + 16);
      long flags = b.getLong(at + 40);
      long mmapFileSize = b.getLong(at + 72);
      long properties = b.getLong(at + 80);
      if (size == -1) {
        ended = true; // the end-of-areas marker: whatever follows is cut as fixed
        return;
      }
      long bytes = 0;
      if ((properties & ZERO_PAGE) == 0 && (properties & PARENT_HEADER) == 0) {
        bytes = (flags & MAP_ANONYMOUS) == 0 && mmapFileSize > 0 ? mmapFileSize : size;
      }
      if (bytes < 0 || bytes > MAX_AREA) {
        ended = true;
        return;
      }
      dataStart = offset + AREA;
      dataEnd = dataStart + bytes;
      dataAddress = address;
      nextHeader = dataEnd;
      headers.put(offset, HEADER_TAG | address);
    }

    @Override
    long addressAt(long offset) {
      if (offset >= dataStart && offset < dataEnd) {
        return dataAddress + (offset - dataStart);
      }
      Long a = headers.get(offset);
      return a == null ? -1 : a;
    }

    @Override
    String name() {
      return "dmtcp";
    }
  }

  /**
   * An ELF64 little-endian core file (gcore): the ELF header, the program header table, the notes
   * (registers and mappings: new every checkpoint), then each {@code PT_LOAD} segment's bytes at
   * its {@code p_offset}. Every segment's start and end is a boundary.
   */
  static final class ElfCore extends ImageLayout {
    /** A loaded segment: file offset, length in the file, virtual address. */
    private record Segment(long offset, long length, long address) {}

    private final TreeSet<Long> boundaries;
    private final java.util.TreeMap<Long, Segment> segments;
    private final int chunkSize;

    private ElfCore(TreeSet<Long> boundaries, java.util.TreeMap<Long, Segment> segments, int chunkSize) {
      this.boundaries = boundaries;
      this.segments = segments;
      this.chunkSize = chunkSize;
    }

    static ElfCore parse(byte[] head, int n, int chunkSize) {
      if (n < 64 || head[0] != 0x7f || head[1] != 'E' || head[2] != 'L' || head[3] != 'F' || head[4] != 2 || head[5] != 1) {
        return null;
      }
      ByteBuffer b = ByteBuffer.wrap(head, 0, n).order(ByteOrder.LITTLE_ENDIAN);
      int type = b.getShort(16) & 0xffff;
      long phoff = b.getLong(32);
      int phentsize = b.getShort(54) & 0xffff;
      int phnum = b.getShort(56) & 0xffff;
      if (type != 4 || phentsize < 56 || phnum == 0 || phnum == 0xffff || phoff < 64 || phoff + (long) phnum * phentsize > n) {
        return null; // not a core file, or its table is beyond what was read: fixed chunks
      }
      TreeSet<Long> bounds = new TreeSet<>();
      java.util.TreeMap<Long, Segment> segs = new java.util.TreeMap<>();
      bounds.add(phoff + (long) phnum * phentsize);
      for (int i = 0; i < phnum; i++) {
        int at = (int) (phoff + (long) i * phentsize);
        int kind = b.getInt(at);
        long offset = b.getLong(at + 8);
        long vaddr = b.getLong(at + 16);
        long filesz = b.getLong(at + 32);
        if (filesz > 0 && offset > 0 && offset + filesz > offset) {
          bounds.add(offset);
          bounds.add(offset + filesz);
          if (kind == 1) { // PT_LOAD: memory, cut by address
            segs.put(offset, new Segment(offset, filesz, vaddr));
          }
        }
      }
      return new ElfCore(bounds, segs, chunkSize);
    }

    private Segment segmentAt(long offset) {
      java.util.Map.Entry<Long, Segment> e = segments.floorEntry(offset);
      return e != null && offset < e.getValue().offset() + e.getValue().length() ? e.getValue() : null;
    }

    @Override
    long regionAt(long offset) {
      Long next = boundaries.higher(offset);
      long region = next == null ? REST : next - offset;
      Segment s = segmentAt(offset);
      return s == null ? region : Math.min(region, toAligned(s.address() + (offset - s.offset()), chunkSize));
    }

    @Override
    long addressAt(long offset) {
      Segment s = segmentAt(offset);
      return s == null ? -1 : s.address() + (offset - s.offset());
    }

    @Override
    String name() {
      return "elf-core";
    }
  }
}
