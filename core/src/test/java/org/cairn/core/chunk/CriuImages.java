package org.cairn.core.chunk;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** CRIU pagemap images as CRIU frames them, for tests: the two magic words, then length-prefixed protobuf messages. */
final class CriuImages {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  private CriuImages() {}

  /** A pagemap whose head names {@code pagesId}. */
  static CriuImages pagemap(long pagesId) {
    CriuImages i = new CriuImages();
    i.out.writeBytes(le(CriuPagemap.COMMON_MAGIC));
    i.out.writeBytes(le(CriuPagemap.PAGEMAP_MAGIC));
    return i.message(field(1, pagesId));
  }

  /** An entry as CRIU 4 writes it: vaddr, compat_nr_pages, flags, nr_pages. */
  CriuImages entry(long vaddr, long pages, int flags) {
    return message(field(1, vaddr), field(2, pages & 0xFFFF_FFFFL), field(4, flags), field(5, pages));
  }

  /** A present entry. */
  CriuImages present(long vaddr, long pages) {
    return entry(vaddr, pages, CriuPagemap.PE_PRESENT);
  }

  /** A message of the given encoded fields. */
  CriuImages message(byte[]... fields) {
    ByteArrayOutputStream m = new ByteArrayOutputStream();
    for (byte[] f : fields) {
      m.writeBytes(f);
    }
    out.writeBytes(le(m.size()));
    out.writeBytes(m.toByteArray());
    return this;
  }

  /** Raw bytes appended as they are. */
  CriuImages raw(byte[] bytes) {
    out.writeBytes(bytes);
    return this;
  }

  byte[] bytes() {
    return out.toByteArray();
  }

  /** A varint field. */
  static byte[] field(int number, long value) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes(varint((long) number << 3));
    b.writeBytes(varint(value));
    return b.toByteArray();
  }

  static byte[] varint(long v) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    while ((v & ~0x7FL) != 0) {
      b.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    b.write((int) v);
    return b.toByteArray();
  }

  static byte[] le(int v) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
  }
}
