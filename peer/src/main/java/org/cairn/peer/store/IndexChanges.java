package org.cairn.peer.store;

import java.util.ArrayList;
import java.util.List;

/** Index changes made together by {@link FragmentIndex#commit}: puts and deletes, by key bytes. */
final class IndexChanges {
  private final List<byte[]> putKeys = new ArrayList<>();
  private final List<byte[]> putValues = new ArrayList<>();
  private final List<byte[]> deletes = new ArrayList<>();

  IndexChanges put(byte[] key, SegmentLog.Location at) {
    putKeys.add(key);
    putValues.add(at.encode());
    return this;
  }

  IndexChanges delete(byte[] key) {
    deletes.add(key);
    return this;
  }

  boolean isEmpty() {
    return putKeys.isEmpty() && deletes.isEmpty();
  }

  List<byte[]> putKeys() {
    return putKeys;
  }

  /** Encoded locations, one per key of {@link #putKeys}. */
  List<byte[]> putValues() {
    return putValues;
  }

  List<byte[]> deletes() {
    return deletes;
  }
}
