package org.cairn.core.chunk;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.archivers.tar.TarUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A directory checkpoint as {@link TarImages} streams it (a POSIX tar): each entry's header starts a
 * chunk, so no two files share one, and an entry that is a DMTCP image is cut as {@link ImageLayout.Dmtcp}
 * cuts a lone image, offsets taken from the entry's data. So a DMTCP computation stored by
 * {@code cairn dmtcp launch} (one image per process in a generation's directory) dedups and pairs its
 * chunks with the previous generation's as single images do. A chunk's locator is its memory address
 * with the entry's name mixed into bits 48..61 (processes of one computation share address ranges); any other chunk's
 * is its member's name and offset ({@link #addressAt}), so a file that changed is a delta of its previous version.
 * A CRIU dump's {@code pages-ID.img} is cut along the {@code pagemap-*.img} that names it ({@link CriuPages}): the
 * tar lists entries sorted by name, so every pagemap of a directory streams past before its pages files; a pagemap
 * that does not parse, or whose present pages do not add up to its pages file's size, leaves that file cut as any
 * file is (a warning says why).
 * The same cut applies to a tar made elsewhere: a Podman checkpoint export ({@code podman container checkpoint --export},
 * written by Go's archive/tar) is {@code checkpoint/} (CRIU's images, sorted by name) beside {@code config.dump},
 * {@code spec.dump} and the rootfs diff, each member's data 512-byte aligned; its pages are cut at page offsets from
 * the member's data start, so the pairing by address holds whatever the members before it grew by.
 * Only regular members are read as pagemaps or pages; a link, directory, device or fifo member has no data whatever its
 * size field says (as Go's archive/tar reads it). A PAX extended header's path and size apply to the member after it
 * (Go writes a size past 8 GiB there, and 0 in the ustar field), read by Commons Compress. A header that does not
 * parse (a zero block, a bad checksum, a size that is not an octal or base-256 number, negative, or beyond
 * {@link #MAX_MEMBER}) ends the layout: the rest is cut as fixed chunks, never misread.
 */
final class TarLayout extends ImageLayout {
  static final int BLOCK = 512;
  private static final int NAME_BITS = 14;
  private static final Logger LOG = LoggerFactory.getLogger(TarLayout.class);
  /** A pagemap larger than this (a million runs) is not read: its pages file is cut plainly. */
  static final int MAX_PAGEMAP = 8 << 20;
  /** Pagemap bytes read for one image at most (runs take about 5 x their bytes of heap): the rest are cut plainly. */
  static final long MAX_PAGEMAPS = 16L << 20;
  /** A member's size beyond this (a PiB) is a header misread, not a file: offsets past it would overflow. */
  static final long MAX_MEMBER = 1L << 50;
  /** A PAX extended header larger than this is not read (its member's ustar fields stand). */
  static final int MAX_PAX = 64 << 10;
  /** Type flags of members that hold data as files do: regular ('0', and NUL of old tars) and contiguous ('7'). */
  private static final String REGULAR = "0\0" + "7";
  /** Type flags of members that never have data: hard and symbolic links, devices, directories, fifos. */
  private static final String HEADER_ONLY = "123456";

  private final int grain;
  private long nextHeader;
  private long dataStart = -1;
  private long dataEnd = -1;
  private long nameTag;
  /** The current member's header offset (-1 before the first), and its name's hash. */
  private long memberStart = -1;
  private long memberKey;
  private ImageLayout inner;
  private boolean ended;
  /** The pagemap entry being read (its name and bytes so far), or null. */
  private String pagemapName;
  private java.io.ByteArrayOutputStream pagemapBytes;
  private long pagemapsKept;
  /** A PAX extended header being read (its header block and data so far), or null; once whole, it is {@link #pax}. */
  private java.io.ByteArrayOutputStream paxBytes;
  /** The whole PAX extended header that applies to the next member (Go writes sizes past 8 GiB there), or null. */
  private byte[] pax;
  /**
   * Pagemaps read so far, by the path of the pages file they name. Usually one each; a checkpoint directory that was
   * dumped into before (Podman's, for a container restored and checkpointed again) can hold a stale pagemap of a
   * process that is gone naming the same page set: the pages file is cut along the one pagemap whose present pages
   * add up to its size, and plainly when none or several do.
   */
  private final java.util.Map<String, java.util.List<CriuPagemap.Pagemap>> pagemaps = new java.util.HashMap<>();

  TarLayout(int grain) {
    this.grain = grain;
  }

  /** A POSIX (ustar) tar's first header. */
  static boolean matches(byte[] head, int n) {
    return n >= BLOCK && head[257] == 'u' && head[258] == 's' && head[259] == 't' && head[260] == 'a' && head[261] == 'r';
  }

  @Override
  long regionAt(long offset) {
    if (ended) {
      return REST;
    }
    if (offset == nextHeader) {
      return BLOCK;
    }
    if (offset >= dataStart && offset < dataEnd) {
      if (inner != null) {
        return Math.min(dataEnd - offset, inner.regionAt(offset - dataStart));
      }
      if (offset == dataStart) {
        return Math.min(dataEnd - offset, Dmtcp.HEADERS); // enough to recognise the entry's format
      }
      return dataEnd - offset;
    }
    if (offset >= dataEnd && offset < nextHeader) {
      return nextHeader - offset; // the entry's padding to a whole block
    }
    ended = true;
    return REST;
  }

  @Override
  boolean inspects(long offset) {
    if (ended) {
      return false;
    }
    if (offset == nextHeader) {
      return true;
    }
    if (offset == dataStart) {
      return inner == null; // unless the header named the entry's layout (CRIU pages), its first bytes tell it
    }
    return inner != null && offset > dataStart && offset < dataEnd && inner.inspects(offset - dataStart);
  }

  @Override
  boolean startsChunk(long offset, byte[] data, int at, int n) {
    if (ended) {
      return false;
    }
    if (offset == nextHeader) {
      return true;
    }
    if (inner != null && offset >= dataStart && offset < dataEnd) {
      return inner.startsChunk(offset - dataStart, data, at, n);
    }
    return false;
  }

  @Override
  void observe(long offset, byte[] data, int at, int n) {
    if (ended) {
      return;
    }
    if (offset == nextHeader) {
      header(data, at, n);
      return;
    }
    if (pagemapBytes != null && offset >= dataStart && offset < dataEnd) {
      collectPagemap(offset, data, at, n);
    }
    if (paxBytes != null && offset >= dataStart && offset < dataEnd) {
      collectPax(offset, data, at, n);
    }
    if (offset == dataStart && inner == null && Dmtcp.matches(data, at, n)) {
      inner = new Dmtcp(grain);
    }
    if (inner != null && offset >= dataStart && offset < dataEnd) {
      inner.observe(offset - dataStart, data, at, n);
    }
  }

  private void header(byte[] data, int at, int n) {
    byte[] block = n < BLOCK ? null : java.util.Arrays.copyOfRange(data, at, at + BLOCK);
    long size = block == null ? -1 : size(block);
    if (size < 0) {
      ended = true; // the archive's end, or a header we cannot read: fixed chunks from here
      return;
    }
    char type = (char) data[at + 156];
    boolean regular = REGULAR.indexOf(type) >= 0;
    String name = text(data, at + 345, 155) + "/" + text(data, at, 100);
    TarArchiveEntry extended = pax == null ? null : withPax(pax, block);
    pax = null;
    if (extended != null) {
      name = "/" + extended.getName();
      size = extended.getSize();
    }
    memberStart = nextHeader;
    memberKey = name.hashCode();
    dataStart = nextHeader + BLOCK;
    dataEnd = dataStart + (HEADER_ONLY.indexOf(type) >= 0 ? 0 : size);
    nextHeader = dataStart + (dataEnd - dataStart + BLOCK - 1) / BLOCK * BLOCK;
    nameTag = name.hashCode() & ((1L << NAME_BITS) - 1);
    inner = null;
    pagemapBytes = null;
    paxBytes = null;
    String base = name.substring(name.lastIndexOf('/') + 1);
    if (type == TarConstants.LF_PAX_EXTENDED_HEADER_LC && size <= MAX_PAX) {
      paxBytes = new java.io.ByteArrayOutputStream(BLOCK + (int) size);
      paxBytes.write(block, 0, BLOCK);
      if (size == 0) {
        pax = paxBytes.toByteArray();
        paxBytes = null;
      }
    }
    if (!regular) {
      return; // a link named pages-1.img is not the pages file
    }
    if (base.startsWith("pagemap-") && base.endsWith(".img")) {
      if (size > MAX_PAGEMAP || pagemapsKept + size > MAX_PAGEMAPS) {
        LOG.warn("CRIU pagemap {} of {} bytes not read (at most {} per pagemap, {} per image): its pages are cut plainly",
            name, size, MAX_PAGEMAP, MAX_PAGEMAPS);
      } else {
        pagemapName = name;
        pagemapBytes = new java.io.ByteArrayOutputStream((int) size);
        pagemapsKept += size;
      }
    } else if (base.startsWith("pages-") && base.endsWith(".img")) {
      inner = pagesLayout(name, size);
    }
  }

  /**
   * The size field of header {@code block}, or -1 if the block is no member's header: all zeros (the archive's end), a
   * checksum that does not match, a size that is not a number (octal, or base-256 as GNU and star write past 8 GiB),
   * negative, or beyond {@link #MAX_MEMBER}.
   */
  static long size(byte[] block) {
    try {
      if (java.util.Arrays.equals(block, new byte[BLOCK]) || !TarUtils.verifyCheckSum(block)) {
        return -1; // verifyCheckSum throws, too, when the checksum field is not octal
      }
      long size = TarUtils.parseOctalOrBinary(block, 124, 12);
      return size >= 0 && size <= MAX_MEMBER ? size : -1;
    } catch (IllegalArgumentException e) {
      return -1;
    }
  }

  /** Keeps a PAX extended header's bytes as they stream past; once whole, they apply to the next member. */
  private void collectPax(long offset, byte[] data, int at, int n) {
    int take = (int) Math.min(n, dataEnd - offset);
    paxBytes.write(data, at, take);
    if (offset + take >= dataEnd) {
      pax = paxBytes.toByteArray();
      paxBytes = null;
    }
  }

  /**
   * Member header {@code block} as extended by PAX header {@code pax} (its header block and data), read by Commons
   * Compress from the two alone: its path and size; null if they do not read as a tar or give a size beyond
   * {@link #MAX_MEMBER} (the ustar fields stand).
   */
  static TarArchiveEntry withPax(byte[] pax, byte[] block) {
    int padded = BLOCK + (pax.length - BLOCK + BLOCK - 1) / BLOCK * BLOCK;
    byte[] two = java.util.Arrays.copyOf(pax, padded + 3 * BLOCK); // then two zero blocks: the archive's end
    System.arraycopy(block, 0, two, padded, BLOCK);
    try (TarArchiveInputStream in = new TarArchiveInputStream(new java.io.ByteArrayInputStream(two))) {
      TarArchiveEntry e = in.getNextEntry();
      return e != null && e.getSize() >= 0 && e.getSize() <= MAX_MEMBER ? e : null;
    } catch (IOException | RuntimeException e) {
      LOG.debug("a PAX extended header not read ({}): its member's ustar fields stand", e.toString());
      return null;
    }
  }

  /** Keeps a pagemap's bytes as they stream past; parses it once whole. */
  private void collectPagemap(long offset, byte[] data, int at, int n) {
    int take = (int) Math.min(n, dataEnd - offset);
    if (offset != dataStart + pagemapBytes.size()) {
      pagemapBytes = null; // cannot happen: each byte is observed once, in order
      return;
    }
    pagemapBytes.write(data, at, take);
    if (offset + take < dataEnd) {
      return;
    }
    try {
      CriuPagemap.Pagemap map = CriuPagemap.parse(pagemapBytes.toByteArray(), pagemapBytes.size());
      String pages = pairKey(pagemapName.substring(0, pagemapName.lastIndexOf('/') + 1) + map.pagesFile());
      pagemaps.computeIfAbsent(pages, k -> new java.util.ArrayList<>(1)).add(map);
    } catch (CriuPagemap.Malformed e) {
      LOG.warn("CRIU pagemap {} refused ({}): its pages are cut plainly", pagemapName, e.getMessage());
    }
    pagemapBytes = null;
  }

  /** The layout of CRIU pages file {@code name} of {@code size} bytes: along its pagemap if one matches it, else none. */
  private ImageLayout pagesLayout(String name, long size) {
    java.util.List<CriuPagemap.Pagemap> maps = pagemaps.remove(pairKey(name));
    if (maps == null) {
      return null;
    }
    java.util.List<CriuPagemap.Pagemap> fit = maps.stream().filter(m -> m.presentBytes() == size).toList();
    if (fit.size() == 1) {
      if (maps.size() > 1) {
        LOG.info("CRIU pages file {} is named by {} pagemaps: cut along the one that adds up to its {} bytes", name,
            maps.size(), size);
      }
      return new CriuPages(fit.get(0).runs(), grain);
    }
    if (fit.isEmpty()) {
      LOG.warn("CRIU pages file {} holds {} bytes where its pagemap has {}: it is cut plainly", name, size,
          maps.stream().map(m -> Long.toString(m.presentBytes())).collect(java.util.stream.Collectors.joining(" or ")));
    } else {
      LOG.warn("CRIU pages file {} is named by {} pagemaps that each add up to its {} bytes: it is cut plainly", name,
          fit.size(), size);
    }
    return null;
  }

  /**
   * In a member's memory (DMTCP areas, CRIU pages): the address, with the member's name in bits 48..61. Anywhere else
   * in a member (its header, a file's data, the padding): a locator of the member's name and the offset from its header,
   * with {@link #HEADER_TAG} set so it is never a memory address: the next checkpoint's chunk of the same file is its
   * delta base, so a member whose header changed (Podman's exports carry each file's mtime) or that grew (a log) is
   * sent as the few bytes that differ.
   */
  @Override
  long addressAt(long offset) {
    if (offset < memberStart || offset >= nextHeader) {
      return -1;
    }
    if (inner != null && offset >= dataStart && offset < dataEnd) {
      long a = inner.addressAt(offset - dataStart);
      return a < 0 ? -1 : a | (nameTag << 48);
    }
    return HEADER_TAG | ((memberKey << 32) ^ (offset - memberStart)) & ((1L << 62) - 1);
  }

  @Override
  String name() {
    return "tar";
  }

  /** A member's path without leading slashes: a ustar name and a PAX path of one file pair. */
  private static String pairKey(String name) {
    int i = 0;
    while (i < name.length() && name.charAt(i) == '/') {
      i++;
    }
    return name.substring(i);
  }

  private static String text(byte[] data, int at, int len) {
    int end = at;
    while (end < at + len && data[end] != 0) {
      end++;
    }
    return new String(data, at, end - at, StandardCharsets.UTF_8);
  }
}
