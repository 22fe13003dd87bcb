package org.cairn.bench;

import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.cairn.core.chunk.Chunk;
import org.cairn.core.compress.Compressed;
import org.cairn.core.compress.Compressor;
import org.cairn.core.erasure.CauchyCode;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.erasure.ReedSolomon;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.pipeline.FetchPipeline;
import org.cairn.core.pipeline.StorePipeline;
import org.cairn.core.pipeline.StoreResult;

/** The measurements of {@code cairn benchmark}, each reporting through a callback as it goes. */
public final class Stages {
  private final BenchData data;
  private final double seconds;
  private final Consumer<StageResult> out;

  public Stages(BenchData data, double seconds, Consumer<StageResult> out) {
    this.data = data;
    this.seconds = seconds;
    this.out = out;
  }

  /** SHA-256 of chunk-sized pieces, one thread. */
  public double hashing(int chunkSize) throws Exception {
    byte[] image = data.first();
    double rate = Rate.mbPerSec(() -> {
      for (int off = 0; off < image.length; off += chunkSize) {
        ChunkId.of(image, off, Math.min(chunkSize, image.length - off));
      }
      return image.length;
    }, seconds);
    out.accept(new StageResult("hashing", rate).with("algorithm", "sha256").with("chunkSize", chunkSize).with("threads", 1));
    return rate;
  }

  /** Each compressor on chunk-sized pieces, one thread: compress rate, ratio, decompress rate. */
  public void compression(List<String> specs, int chunkSize) throws Exception {
    byte[] image = data.first();
    for (String spec : specs) {
      Compressor c = Compressor.parse(spec);
      List<Compressed> results = new ArrayList<>();
      long[] stored = {0};
      double rate = Rate.mbPerSec(() -> {
        results.clear();
        stored[0] = 0;
        for (int off = 0; off < image.length; off += chunkSize) {
          Compressed r = c.compress(image, off, Math.min(chunkSize, image.length - off));
          results.add(r);
          stored[0] += r.length();
        }
        return image.length;
      }, seconds);
      double decompress = Rate.mbPerSec(() -> {
        int off = 0;
        for (Compressed r : results) {
          int len = Math.min(chunkSize, image.length - off);
          r.type().decompress(r.data(), 0, r.length(), len);
          off += len;
        }
        return image.length;
      }, seconds);
      out.accept(new StageResult("compression", rate)
          .with("codec", c.spec())
          .with("ratio", (double) image.length / stored[0])
          .with("decompressMbPerSec", Math.round(decompress * 10) / 10.0)
          .with("chunkSize", chunkSize)
          .with("threads", 1));
    }
  }

  /**
   * Encode m data shards of {@code shardSize} bytes to k parity shards, and rebuild with the first
   * min(k, m) data shards lost, for Reed-Solomon and the Cauchy XOR code; SHA-256 is measured in the
   * same run so the ratios the issue targets come out directly.
   */
  public void erasure(int m, int k, int shardSize, List<String> codecs) throws Exception {
    byte[] image = data.first();
    int payload = Math.min(image.length, m * shardSize);
    double sha = Rate.mbPerSec(() -> {
      ChunkId.of(image, 0, payload);
      return payload;
    }, seconds);
    int lost = Math.min(k, m);
    for (String name : codecs) {
      Redundancy r = Redundancy.parse(name + ":" + m + "+" + k);
      int size = r.fragmentSize(payload);
      // The codec alone, on preallocated shards (how Reed-Solomon libraries are usually measured).
      byte[][] shards = r.encode(image, 0, payload);
      Codec codec = name.equals("cauchy") ? new Codec(new CauchyCode(m, k)) : new Codec(new ReedSolomon(m, k));
      double encode = Rate.mbPerSec(() -> {
        codec.encode(shards, size);
        return payload;
      }, seconds);
      boolean[] present = new boolean[m + k];
      java.util.Arrays.fill(present, true);
      for (int i = 0; i < lost; i++) {
        present[i] = false;
      }
      double decode = Rate.mbPerSec(() -> {
        codec.reconstruct(shards, present, size);
        return payload;
      }, seconds);
      // The whole fragment path the pipeline runs: split the payload, allocate, code, join.
      double encodeAll = Rate.mbPerSec(() -> {
        r.encode(image, 0, payload);
        return payload;
      }, seconds);
      byte[][] damaged = r.encode(image, 0, payload);
      for (int i = 0; i < lost; i++) {
        damaged[i] = null;
      }
      double decodeAll = Rate.mbPerSec(() -> {
        r.decode(damaged, payload);
        return payload;
      }, seconds);
      emitErasure(r, "encode", encode, sha, size, 0);
      emitErasure(r, "decode", decode, sha, size, lost);
      emitErasure(r, "encode-fragments", encodeAll, sha, size, 0);
      emitErasure(r, "decode-fragments", decodeAll, sha, size, lost);
    }
    out.accept(new StageResult("erasure", sha).with("codec", "sha256").with("operation", "baseline").with("threads", 1));
  }

  private void emitErasure(Redundancy r, String operation, double rate, double sha, int size, int lost) {
    StageResult line = new StageResult("erasure", rate).with("codec", r.spec()).with("operation", operation)
        .with("shardSize", size);
    if (lost > 0) {
      line.with("lostDataShards", lost);
    }
    out.accept(line.with("ratioToSha256", rate / sha).with("threads", 1));
  }

  /** Either raw codec behind one shape, for the measurement loop. */
  private static final class Codec {
    private final ReedSolomon rs;
    private final CauchyCode cauchy;

    Codec(ReedSolomon rs) {
      this.rs = rs;
      this.cauchy = null;
    }

    Codec(CauchyCode cauchy) {
      this.rs = null;
      this.cauchy = cauchy;
    }

    void encode(byte[][] shards, int size) {
      if (rs != null) {
        rs.encodeParity(shards, 0, size);
      } else {
        cauchy.encodeParity(shards);
      }
    }

    void reconstruct(byte[][] shards, boolean[] present, int size) {
      if (rs != null) {
        rs.reconstruct(shards, present, 0, size);
      } else {
        cauchy.reconstruct(shards, present);
      }
    }
  }

  /**
   * Cut + hash + dedup over the image series for each chunk size: throughput and dedup ratio
   * (bytes in / bytes of distinct chunks). With one image, dedup is within that image.
   */
  public void chunking(List<Integer> chunkSizes, List<org.cairn.core.chunk.Chunking> modes) throws Exception {
    long total = 0;
    for (byte[] image : data.images()) {
      total += image.length;
    }
    long totalBytes = total;
    for (org.cairn.core.chunk.Chunking mode : modes) {
    for (int size : chunkSizes) {
      long[] unique = {0};
      long[] chunks = {0};
      long[] lastImageNew = {0};
      double rate = Rate.mbPerSec(() -> {
        Set<ChunkId> seen = new HashSet<>();
        unique[0] = 0;
        chunks[0] = 0;
        byte[][] buffer = {new byte[mode.maxChunk(size)], new byte[mode.maxChunk(size)]};
        int[] turn = {0};
        for (byte[] image : data.images()) {
          lastImageNew[0] = 0;
          org.cairn.core.chunk.Chunker chunker = mode.chunker(new ByteArrayInputStream(image), size, () -> buffer[turn[0]++ & 1]);
          Chunk c;
          while ((c = chunker.next()) != null) {
            chunks[0]++;
            if (seen.add(ChunkId.of(c.data(), 0, c.length()))) {
              unique[0] += c.length();
              lastImageNew[0] += c.length();
            }
          }
        }
        return totalBytes;
      }, seconds);
      byte[] last = data.images().get(data.images().size() - 1);
      out.accept(new StageResult("chunking", rate)
          .with("chunking", mode.spec())
          .with("chunkSize", size)
          .with("meanChunk", (double) totalBytes / Math.max(1, chunks[0]))
          .with("images", data.images().size())
          .with("totalBytes", totalBytes)
          .with("uniqueBytes", unique[0])
          .with("dedupRatio", (double) totalBytes / unique[0])
          .with("lastImageNewFraction", (double) lastImageNew[0] / last.length)
          .with("threads", 1));
    }
    }
  }

  /**
   * The whole store pipeline (chunk, hash, compress, code) into an in-memory sink, then the fetch
   * pipeline back from it, with the given threads; no dedup index, so every chunk is coded.
   */
  public void pipeline(int chunkSize, String compression, String redundancy, int threads) throws Exception {
    byte[] image = data.first();
    ChunkCodec codec = new ChunkCodec(Compressor.parse(compression), Redundancy.parse(redundancy));
    Map<ChunkId, Fragment[]> grid = new ConcurrentHashMap<>();
    StorePipeline store = new StorePipeline(codec, chunkSize, threads);
    StoreResult[] last = new StoreResult[1];
    double storeRate = Rate.mbPerSec(() -> {
      grid.clear();
      last[0] = store.store(new ByteArrayInputStream(image), StorePipeline.DedupIndex.NONE,
          (index, fragments) -> grid.put(fragments[0].chunkId(), fragments));
      return image.length;
    }, seconds);
    FetchPipeline fetch = new FetchPipeline(threads);
    int m = codec.redundancy().dataFragments();
    double fetchRate = Rate.mbPerSec(() -> fetch.fetch(last[0].chunks(), (index, ref) -> {
      // drop the first k fragments (all of them data when k <= m) so fetch really decodes
      Fragment[] all = grid.get(ref.id());
      Fragment[] some = all.clone();
      for (int i = 0; i < all.length - m; i++) {
        some[i] = null;
      }
      return some;
    }, OutputStream.nullOutputStream()), seconds);
    // Single-thread rates of the stages a chunk goes through, in MB/s of image bytes, to put the
    // pipeline's figure in context: the target is 0.7 x slowest stage x threads; since every
    // stage runs on the same cores, the CPU-bound ceiling is threads / sum(1 / rate).
    double hash = Rate.mbPerSec(() -> {
      for (int off = 0; off < image.length; off += chunkSize) {
        ChunkId.of(image, off, Math.min(chunkSize, image.length - off));
      }
      return image.length;
    }, seconds);
    List<Compressed> compressed = new ArrayList<>();
    double compress = Rate.mbPerSec(() -> {
      compressed.clear();
      for (int off = 0; off < image.length; off += chunkSize) {
        compressed.add(codec.compressor().compress(image, off, Math.min(chunkSize, image.length - off)));
      }
      return image.length;
    }, seconds);
    double encode = Rate.mbPerSec(() -> {
      for (Compressed c : compressed) {
        codec.redundancy().encode(c.data(), 0, c.length());
      }
      return image.length;
    }, seconds);
    double slowest = Math.min(hash, Math.min(compress, encode));
    double ceiling = threads / (1 / hash + 1 / compress + 1 / encode);
    out.accept(new StageResult("pipeline", storeRate).with("operation", "store").with("threads", threads)
        .with("chunkSize", chunkSize).with("compression", codec.compressor().spec()).with("redundancy", redundancy)
        .with("ratio", (double) last[0].bytesIn() / Math.max(1, last[0].encodedBytes()))
        .with("hashMbPerSec", round(hash)).with("compressMbPerSec", round(compress)).with("encodeMbPerSec", round(encode))
        .with("slowestStageTimesThreads", round(slowest * threads))
        .with("cpuBoundCeilingMbPerSec", round(ceiling))
        .with("fractionOfSlowestTimesThreads", storeRate / (slowest * threads))
        .with("fractionOfCeiling", storeRate / ceiling));
    out.accept(new StageResult("pipeline", fetchRate).with("operation", "fetch").with("threads", threads)
        .with("chunkSize", chunkSize).with("compression", codec.compressor().spec()).with("redundancy", redundancy)
        .with("lostFragmentsPerChunk", codec.redundancy().parityFragments()));
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
