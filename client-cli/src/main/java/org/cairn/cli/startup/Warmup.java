package org.cairn.cli.startup;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import org.cairn.core.compress.Compressor;
import org.cairn.core.crypto.AppKey;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.image.MemoryImages;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.pipeline.ChunkDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's JIT warm-up: runs the chunk path (keyed id, zstd or a page delta against a base,
 * sealing, Reed-Solomon encode, and decode back) over generated memory-image chunks with a throw-away key, so the first checkpoint a
 * job hands over runs compiled code instead of paying the compilers (measured: a fresh agent's first
 * stores spent about a third of their CPU in C2). Nothing leaves the process.
 */
public final class Warmup {
  private static final Logger LOG = LoggerFactory.getLogger(Warmup.class);

  private Warmup() {}

  /** Runs up to {@code chunks} 1 MiB chunks each way or until {@code budget} has passed; returns the chunks done. */
  public static int run(int chunks, Duration budget) {
    long start = System.nanoTime();
    long deadline = start + budget.toNanos();
    ChunkCrypto sealed = AppKey.generate("cairn-warmup", Instant.now()).crypto(Encryption.parse("aes-gcm"));
    ChunkCodec[] codecs = {
        new ChunkCodec(Compressor.parse(Compressor.DEFAULT_SPEC), Redundancy.parse(Redundancy.DEFAULT_SPEC), sealed),
        new ChunkCodec(Compressor.parse(Compressor.DEFAULT_SPEC), Redundancy.parse(Redundancy.DEFAULT_SPEC), ChunkCrypto.PLAIN)};
    byte[] image = MemoryImages.image(19, 8 << 20);
    int size = 1 << 20;
    int done = 0;
    long check = 0;
    while (done < chunks && System.nanoTime() < deadline) {
      ChunkCodec codec = codecs[done % codecs.length];
      int off = (done % 8) * size;
      byte[] chunk = Arrays.copyOfRange(image, off, off + size);
      chunk[done % size] ^= (byte) done; // a new chunk each time, as a successor checkpoint's
      ChunkId id = codec.id(chunk, chunk.length);
      // every other chunk is coded against its unchanged self, as a successor checkpoint's changed chunks are
      byte[] previous = done % 4 < 2 ? null : Arrays.copyOfRange(image, off, off + size);
      ChunkCodec.Base base = previous == null ? null : new ChunkCodec.Base(codec.id(previous, size), previous);
      Fragment[] pieces = codec.encode(id, chunk, chunk.length, base);
      int m = codec.redundancy().dataFragments();
      Fragment[] firstM = Arrays.copyOfRange(pieces, pieces.length - m, pieces.length); // parity included: decoding works
      try {
        check += ChunkDecoder.decode(id, firstM, codec.crypto(), baseId -> previous).length;
      } catch (java.io.IOException e) {
        throw new IllegalStateException("warm-up decode failed: " + e.getMessage(), e);
      }
      done++;
    }
    LOG.info("warmed up the chunk path on {} chunks ({} MB decoded) in {} ms", done, check >> 20, (System.nanoTime() - start) / 1_000_000);
    return done;
  }
}
