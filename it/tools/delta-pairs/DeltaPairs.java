import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.cairn.core.chunk.AlignedChunker;
import org.cairn.core.chunk.Chunk;
import org.cairn.core.chunk.Chunker;
import org.cairn.core.chunk.Chunking;
import org.cairn.core.compress.Compressed;
import org.cairn.core.compress.Compressor;
import org.cairn.core.compress.DeltaCodec;
import org.cairn.core.hash.ChunkId;

/**
 * What each delta form costs on real images (docs/chunk-size.md, "XOR by page"): the chunks of image B
 * that changed from image A at the same memory address, paired as a store pairs them (AlignedChunker),
 * each coded with DeltaCodec's dictionary form (zstd 3, DELTA), its page form (zstd 1, PAGE_DELTA) and
 * plainly (zstd 1), on one thread; four passes, the last printed is warm.
 *
 *   J=$(ls ~/.m2/repository/com/github/luben/zstd-jni/1.5.6-8/zstd-jni-1.5.6-8.jar)
 *   CP=$J:core/target/classes:$(ls ~/.m2/repository/org/slf4j/slf4j-api/*\/slf4j-api-*.jar | head -1)
 *   javac -cp $CP -d /tmp/delta-pairs it/tools/delta-pairs/DeltaPairs.java
 *   java -cp $CP:/tmp/delta-pairs DeltaPairs IMAGE_A IMAGE_B [CHUNK_SIZE]
 */
public final class DeltaPairs {
  private static Map<Long, byte[]> chunks(String file, int chunkSize) throws Exception {
    Map<Long, byte[]> byAddress = new HashMap<>();
    try (InputStream in = new BufferedInputStream(new FileInputStream(file), 1 << 20)) {
      Chunker c = new AlignedChunker(in, chunkSize, () -> new byte[Chunking.ALIGNED.maxChunk(chunkSize)]);
      for (Chunk k; (k = c.next()) != null; ) {
        if (k.address() >= 0) {
          byAddress.put(k.address(), Arrays.copyOf(k.data(), k.length()));
        }
      }
    }
    return byAddress;
  }

  public static void main(String[] args) throws Exception {
    int chunkSize = args.length > 2 ? Integer.parseInt(args[2]) : 1 << 20;
    Map<Long, byte[]> a = chunks(args[0], chunkSize);
    Map<Long, byte[]> b = chunks(args[1], chunkSize);
    List<byte[][]> pairs = new ArrayList<>();
    for (Map.Entry<Long, byte[]> e : b.entrySet()) {
      byte[] base = a.get(e.getKey());
      if (base != null && !Arrays.equals(base, e.getValue())) {
        pairs.add(new byte[][] {base, e.getValue()});
      }
    }
    List<ChunkId> ids = new ArrayList<>();
    for (byte[][] p : pairs) {
      ids.add(ChunkId.of(p[0]));
    }
    Compressor plain = Compressor.parse("zstd:1");
    System.out.printf("%d chunks with an address in B, %d changed from A at the same address%n", b.size(), pairs.size());
    for (int pass = 0; pass < 4; pass++) {
      long raw = 0, dict = 0, page = 0, flat = 0, tDict = 0, tPage = 0, tFlat = 0;
      for (int i = 0; i < pairs.size(); i++) {
        byte[] base = pairs.get(i)[0];
        byte[] chunk = pairs.get(i)[1];
        raw += chunk.length;
        long t0 = System.nanoTime();
        dict += DeltaCodec.usable(base, base.length)
            ? DeltaCodec.encodeTransient(ids.get(i), base, chunk, 0, chunk.length, 3).length() : chunk.length;
        long t1 = System.nanoTime();
        Compressed p = DeltaCodec.encodePagesTransient(ids.get(i), base, chunk, chunk.length, 1);
        long t2 = System.nanoTime();
        int f = plain.compressTransient(chunk, 0, chunk.length).length();
        long t3 = System.nanoTime();
        page += p == null ? f : p.length(); // no page shared: a store codes it plainly
        flat += f;
        tDict += t1 - t0;
        tPage += t2 - t1;
        tFlat += t3 - t2;
      }
      if (pass == 3) {
        System.out.printf("changed %d MB: dictionary zstd-3 %d KB in %d ms | page XOR zstd-1 %d KB in %d ms | plain zstd-1 %d KB in %d ms%n",
            raw >> 20, dict >> 10, tDict / 1_000_000, page >> 10, tPage / 1_000_000, flat >> 10, tFlat / 1_000_000);
      }
    }
  }
}
