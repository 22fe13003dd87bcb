package org.cairn.tracker.group;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The tracker group's log entries: a batch of store changes ({@code B}), or a file of the data
 * directory the members share (tokens and the grid's keys, {@code F}) written whole.
 */
final class LogEntries {
  static final byte BATCH = 'B';
  static final byte FILE = 'F';
  /** A batch compressed with zstd: u32 its length, then the frame (batches of chunk records compress about 4:1). */
  static final byte ZBATCH = 'Z';
  /** Batches at least this long are compressed. */
  static final int COMPRESS_FROM = 8192;
  /** The only files the log may write, relative to the data directory. */
  private static final java.util.regex.Pattern SHARED = java.util.regex.Pattern.compile(
      "tokens/[A-Za-z0-9_-]{1,64}\\.json|dataplane\\.key|ticket\\.key|admin\\.token|catalog\\.key");

  private LogEntries() {}

  static byte[] batch(byte[] encodedBatch) {
    if (encodedBatch.length >= COMPRESS_FROM) {
      byte[] z = com.github.luben.zstd.Zstd.compress(encodedBatch, 1);
      return java.nio.ByteBuffer.allocate(5 + z.length).put(ZBATCH).putInt(encodedBatch.length).put(z).array();
    }
    byte[] out = new byte[encodedBatch.length + 1];
    out[0] = BATCH;
    System.arraycopy(encodedBatch, 0, out, 1, encodedBatch.length);
    return out;
  }

  static byte[] file(String relative, byte[] content) {
    requireShared(relative);
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeByte(FILE);
      out.writeUTF(relative);
      out.writeInt(content.length);
      out.write(content);
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A file entry's path and content. */
  record SharedFile(String relative, byte[] content) {}

  static SharedFile readFile(byte[] entry) throws IOException {
    DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(entry, 1, entry.length - 1));
    String relative = in.readUTF();
    requireShared(relative);
    int n = in.readInt();
    if (n < 0 || n != in.available()) {
      throw new IOException("a shared-file entry for " + relative + " says " + n + " bytes where " + in.available() + " follow");
    }
    return new SharedFile(relative, in.readNBytes(n));
  }

  /** The encoded batch of a BATCH or ZBATCH entry. */
  static byte[] batchOf(byte[] entry) throws IOException {
    if (entry[0] == ZBATCH) {
      if (entry.length < 5) {
        throw new IOException("a compressed batch entry of " + entry.length + " bytes");
      }
      int n = java.nio.ByteBuffer.wrap(entry, 1, 4).getInt();
      if (n < 0 || n > 256 << 20) {
        throw new IOException("a compressed batch entry claims " + n + " bytes");
      }
      byte[] out = com.github.luben.zstd.Zstd.decompress(Arrays.copyOfRange(entry, 5, entry.length), n);
      if (out.length != n) {
        throw new IOException("a compressed batch entry decompressed to " + out.length + " bytes, not " + n);
      }
      return out;
    }
    return Arrays.copyOfRange(entry, 1, entry.length);
  }

  private static void requireShared(String relative) {
    if (!SHARED.matcher(relative).matches()) {
      throw new IllegalArgumentException("the tracker group's log writes no file '" + relative + "'");
    }
  }

  static String describe(byte[] entry) {
    return entry.length == 0 ? "an empty entry" : "an entry of kind " + new String(entry, 0, 1, StandardCharsets.ISO_8859_1);
  }
}
