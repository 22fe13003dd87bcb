package org.cairn.tracker.store;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Changes to the tracker's store applied together ({@link TrackerStore#write}), and their encoding
 * as one entry of a tracker group's log: per change its column family, key and value (length -1: a
 * delete).
 */
public final class Batch {
  final List<Op> ops = new ArrayList<>();

  record Op(TrackerStore.Family family, byte[] key, byte[] value) {}

  public Batch put(TrackerStore.Family f, byte[] key, byte[] value) {
    ops.add(new Op(f, key, value));
    return this;
  }

  public Batch delete(TrackerStore.Family f, byte[] key) {
    ops.add(new Op(f, key, null));
    return this;
  }

  /** How many changes. */
  public int size() {
    return ops.size();
  }

  /** How many of the changes are to family {@code f}. */
  public int count(TrackerStore.Family f) {
    int n = 0;
    for (Op op : ops) {
      n += op.family() == f ? 1 : 0;
    }
    return n;
  }

  public byte[] encode() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(ops.size());
      for (Op op : ops) {
        out.writeByte(op.family().ordinal());
        out.writeInt(op.key().length);
        out.write(op.key());
        out.writeInt(op.value() == null ? -1 : op.value().length);
        if (op.value() != null) {
          out.write(op.value());
        }
      }
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
  }

  /** The batch {@link #encode} wrote; an IOException names what is wrong with other bytes. */
  public static Batch decode(byte[] encoded) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded));
    Batch batch = new Batch();
    try {
      int n = in.readInt();
      if (n < 0) {
        throw new IOException("a replicated batch of " + n + " changes");
      }
      TrackerStore.Family[] families = TrackerStore.Family.values();
      for (int i = 0; i < n; i++) {
        int f = in.readUnsignedByte();
        if (f >= families.length) {
          throw new IOException("a replicated change names column family " + f + " of " + families.length);
        }
        byte[] key = in.readNBytes(length(in.readInt(), in));
        int vlen = in.readInt();
        if (vlen == -1) {
          batch.delete(families[f], key);
        } else {
          batch.put(families[f], key, in.readNBytes(length(vlen, in)));
        }
      }
      if (in.available() > 0) {
        throw new IOException(in.available() + " bytes after the last change of a replicated batch");
      }
    } catch (EOFException e) {
      throw new IOException("a replicated batch ends early", e);
    }
    return batch;
  }

  private static int length(int n, DataInputStream in) throws IOException {
    if (n < 0 || n > in.available()) {
      throw new IOException("a replicated change of " + n + " bytes where " + in.available() + " remain");
    }
    return n;
  }
}
