package org.cairn.core.chunk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A CRIU {@code pagemap-*.img}: where a dumped process's memory is. The file is CRIU's image framing (the common
 * magic, the pagemap magic, then per message a 4-byte little-endian length and a protobuf message): a
 * {@code pagemap_head} naming the page set ({@code pages-ID.img}), then {@code pagemap_entry}s of a virtual address,
 * a page count and flags. The pages of entries flagged present lie back to back in {@code pages-ID.img}, in the
 * pagemap's order; entries in a parent dump or left lazy have none there. Read strictly: anything CRIU does not
 * write (a length past the end, a truncated message, an address off a page, an absurd count, entries out of order or
 * overlapping) is refused with a {@link Malformed} naming it, and the caller cuts the pages file as it cuts any file.
 */
public final class CriuPagemap {
  /** CRIU's page on the hosts Cairn runs on (x86-64): a pages file of another page size does not match its pagemap. */
  public static final int PAGE = 4096;
  static final int COMMON_MAGIC = 0x54564319;
  static final int PAGEMAP_MAGIC = 0x56084025;
  /** The largest message CRIU writes here is about 30 bytes; a length beyond this is not a pagemap's. */
  static final int MAX_MESSAGE = 1024;
  /** No user-space address reaches this (57-bit addressing with 5-level page tables). */
  static final long ADDRESS_LIMIT = 1L << 57;
  static final int PE_PARENT = 1;
  static final int PE_PRESENT = 4;

  /** A run of {@code pages} pages from {@code vaddr}; {@code present}: its pages are in the pages file. */
  public record Run(long vaddr, long pages, boolean present) {
    public long bytes() {
      return pages * PAGE;
    }

    public long end() {
      return vaddr + bytes();
    }
  }

  /** A parsed pagemap: the page set its pages are in, and its runs in address order. */
  public record Pagemap(long pagesId, List<Run> runs) {
    /** Bytes the pages file must hold: the present runs' pages. */
    public long presentBytes() {
      return runs.stream().filter(Run::present).mapToLong(Run::bytes).sum();
    }

    /** The pages file's name: {@code pages-ID.img}. */
    public String pagesFile() {
      return "pages-" + pagesId + ".img";
    }
  }

  /** A pagemap that is not one CRIU writes. */
  public static final class Malformed extends IOException {
    Malformed(String message) {
      super(message);
    }
  }

  private CriuPagemap() {}

  /** Reads and parses the pagemap file {@code file}. */
  public static Pagemap read(Path file) throws IOException {
    byte[] data = Files.readAllBytes(file);
    try {
      return parse(data, data.length);
    } catch (Malformed e) {
      throw new Malformed(file + ": " + e.getMessage());
    }
  }

  /** Parses the pagemap in {@code data[0, length)}. */
  public static Pagemap parse(byte[] data, int length) throws Malformed {
    ByteBuffer b = ByteBuffer.wrap(data, 0, length).order(ByteOrder.LITTLE_ENDIAN);
    if (length < 8 || b.getInt(0) != COMMON_MAGIC || b.getInt(4) != PAGEMAP_MAGIC) {
      throw new Malformed("not a CRIU pagemap image (its first 8 bytes are not the pagemap magic)");
    }
    b.position(8);
    long pagesId = -1;
    List<Run> runs = new ArrayList<>();
    long previousEnd = 0;
    while (b.hasRemaining()) {
      Fields f = message(b, pagesId < 0 ? "the pagemap head" : "entry " + runs.size());
      if (pagesId < 0) {
        pagesId = f.require(1, "pages_id");
        if (pagesId > 0xFFFF_FFFFL) {
          throw new Malformed("pages_id " + pagesId + " is not a uint32");
        }
        continue;
      }
      Run run = f.run(runs.size());
      if (run.vaddr() < previousEnd) {
        throw new Malformed("entry " + runs.size() + " at 0x" + Long.toHexString(run.vaddr())
            + " is below the end of the one before it (0x" + Long.toHexString(previousEnd) + "): entries out of order or overlapping");
      }
      previousEnd = run.end();
      runs.add(run);
    }
    if (pagesId < 0) {
      throw new Malformed("no pagemap head");
    }
    return new Pagemap(pagesId, List.copyOf(runs));
  }

  /** The next framed message's fields; {@code what} names it in errors. */
  private static Fields message(ByteBuffer b, String what) throws Malformed {
    if (b.remaining() < 4) {
      throw new Malformed(what + ": " + b.remaining() + " bytes where its 4-byte length belongs (truncated)");
    }
    long size = b.getInt() & 0xFFFF_FFFFL;
    if (size > MAX_MESSAGE) {
      throw new Malformed(what + ": length " + size + " is not a pagemap message's (at most " + MAX_MESSAGE + ")");
    }
    if (size > b.remaining()) {
      throw new Malformed(what + ": length " + size + " but " + b.remaining() + " bytes left (truncated)");
    }
    int end = b.position() + (int) size;
    Fields f = new Fields(what);
    while (b.position() < end) {
      long key = varint(b, end, what);
      int field = (int) (key >>> 3);
      int wire = (int) (key & 7);
      if (key >>> 3 > Integer.MAX_VALUE || field == 0) {
        throw new Malformed(what + ": field number " + (key >>> 3) + " is not a protobuf field");
      }
      switch (wire) {
        case 0 -> f.put(field, varint(b, end, what));
        case 1 -> skip(b, end, 8, what);
        case 2 -> skip(b, end, varint(b, end, what), what);
        case 5 -> skip(b, end, 4, what);
        default -> throw new Malformed(what + ": wire type " + wire + " of field " + field + " is not one protobuf 2 writes");
      }
    }
    return f;
  }

  private static long varint(ByteBuffer b, int end, String what) throws Malformed {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (b.position() >= end) {
        throw new Malformed(what + ": a varint runs past the message's end (truncated)");
      }
      int x = b.get() & 0xFF;
      if (shift == 63 && x > 1) {
        throw new Malformed(what + ": a varint longer than 64 bits");
      }
      v |= (long) (x & 0x7F) << shift;
      if ((x & 0x80) == 0) {
        return v;
      }
    }
    throw new Malformed(what + ": a varint longer than 10 bytes");
  }

  private static void skip(ByteBuffer b, int end, long n, String what) throws Malformed {
    if (n < 0 || n > end - b.position()) {
      throw new Malformed(what + ": a field of " + Long.toUnsignedString(n) + " bytes runs past the message's end");
    }
    b.position(b.position() + (int) n);
  }

  /** The varint fields of one message, by number (pagemap messages have no others that matter). */
  private static final class Fields {
    private final String what;
    private final java.util.Map<Integer, Long> values = new java.util.HashMap<>();

    Fields(String what) {
      this.what = what;
    }

    void put(int field, long value) {
      values.put(field, value);
    }

    long require(int field, String name) throws Malformed {
      Long v = values.get(field);
      if (v == null) {
        throw new Malformed(what + ": no " + name);
      }
      return v;
    }

    /** A pagemap_entry: vaddr 1, compat_nr_pages 2 (uint32), in_parent 3, flags 4, nr_pages 5 (wins over 2). */
    Run run(int index) throws Malformed {
      long vaddr = require(1, "vaddr");
      long compat = require(2, "nr_pages");
      long pages = values.getOrDefault(5, compat);
      if (vaddr % PAGE != 0 || vaddr < 0 || vaddr >= ADDRESS_LIMIT) {
        throw new Malformed(what + ": vaddr 0x" + Long.toHexString(vaddr) + " is not a page-aligned user-space address");
      }
      if (pages <= 0 || pages > (ADDRESS_LIMIT - vaddr) / PAGE) {
        throw new Malformed(what + ": " + Long.toUnsignedString(pages) + " pages from 0x" + Long.toHexString(vaddr)
            + " is no run of user-space memory");
      }
      Long flags = values.get(4);
      boolean inParent = values.getOrDefault(3, 0L) != 0;
      // CRIU's init_compat_pagemap_entry: older images have in_parent and no flags, and then their pages are present
      long effective = (flags == null ? 0 : flags) | (inParent ? PE_PARENT : 0);
      if (!inParent && flags == null) {
        effective |= PE_PRESENT;
      }
      return new Run(vaddr, pages, (effective & PE_PRESENT) != 0);
    }
  }
}
