package org.cairn.core.pipeline;

import java.util.ArrayList;
import java.util.List;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.manifest.ChunkRef;

/** What a store produced ({@link StorePipeline}): the chunk map, in image order, and byte counts. */
public final class StoreResult {
  private final List<ChunkRef> chunks = new ArrayList<>();
  private long bytesIn;
  private long newChunks;
  private long newBytes;
  private long encodedBytes;
  private long storedBytes;
  private long deltaChunks;

  void add(Outcome o) {
    chunks.add(o.ref);
    bytesIn += o.ref.length();
    if (o.sent) {
      newChunks++;
      newBytes += o.ref.length();
      encodedBytes += o.encodedLength;
      deltaChunks += o.delta ? 1 : 0;
      storedBytes += o.storedBytes;
    }
  }

  /** The chunk map, in image order. */
  public List<ChunkRef> chunks() {
    return chunks;
  }

  public long bytesIn() {
    return bytesIn;
  }

  /** Chunks that were encoded and sent (not found by dedup). */
  public long newChunks() {
    return newChunks;
  }

  public long dedupChunks() {
    return chunks.size() - newChunks;
  }

  /** Plaintext bytes of the new chunks. */
  public long newBytes() {
    return newBytes;
  }

  /** Compressed bytes of the new chunks, before coding. */
  public long encodedBytes() {
    return encodedBytes;
  }

  /** New chunks coded against a base (the previous version's chunk at their address). */
  public long deltaChunks() {
    return deltaChunks;
  }

  /** Bytes of all fragments sent, headers included. */
  public long storedBytes() {
    return storedBytes;
  }

  /** A chunk's place in the map and, for a new chunk, the sizes of what was sent (not the pieces: the window keeps outcomes). */
  static final class Outcome {
    final ChunkRef ref;
    final boolean sent;
    final long encodedLength;
    final boolean delta;
    final long storedBytes;

    Outcome(ChunkRef ref, Fragment[] fragments) {
      this.ref = ref;
      this.sent = fragments != null;
      long stored = 0;
      if (fragments != null) {
        for (Fragment f : fragments) {
          stored += f.serializedSize();
        }
      }
      this.encodedLength = fragments == null ? 0 : fragments[0].encodedLength();
      this.delta = fragments != null && fragments[0].compression().delta();
      this.storedBytes = stored;
    }
  }
}
