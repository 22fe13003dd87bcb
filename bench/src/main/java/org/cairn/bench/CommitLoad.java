package org.cairn.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.CommitRequest;
import org.cairn.core.api.member.RegisterRequest;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.manifest.Manifest;

/*
 * Commits against a running tracker (or tracker group): `count` versions, one after another, each a
 * manifest of `chunks` new chunks (seeded random ids, code:4+2 on six simulated peers), timed from
 * the request to the answer. What a store's last step costs the tracker; in a group, the log's round
 * trip to a majority and the apply on the leader are inside it.
 */
public final class CommitLoad {
  private final TrackerClient tracker;

  public CommitLoad(TrackerClient tracker) {
    this.tracker = tracker;
  }

  /** {@code warmup} commits first (not counted), then {@code count} timed ones, each of {@code chunks} new chunks. */
  public StageResult run(int warmup, int count, int chunks) throws Exception {
    List<String> holders = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      holders.add("commit-" + i);
      tracker.register(new RegisterRequest("commit-" + i, "127.0.0.1:" + (30000 + i), "RUNNING", 1L << 40, 0, 1L << 40, 0, false,
          "load"));
    }
    List<String> tags = List.of("00000001", "00000002", "00000003", "00000004", "00000005", "00000006");
    Random random = new Random(21);
    String node = "n" + Long.toHexString(random.nextLong() & 0xffffffL);
    long[] latencies = new long[count];
    long start = System.nanoTime();
    for (int v = -warmup; v < count; v++) {
      if (v == 0) {
        start = System.nanoTime();
      }
      List<ChunkRef> refs = new ArrayList<>(chunks);
      List<CommitRequest.NewChunk> sent = new ArrayList<>(chunks);
      byte[] seed = new byte[32];
      for (int c = 0; c < chunks; c++) {
        random.nextBytes(seed);
        ChunkId id = ChunkId.of(seed);
        refs.add(new ChunkRef(id, 1 << 20));
        sent.add(new CommitRequest.NewChunk(id.hex(), holders, tags, 1_572_864, null));
      }
      Manifest m = Manifest.of("bench-commits", node, 0, 1 << 20, "code:4+2", "zstd", "file", System.currentTimeMillis(), "bench",
          refs);
      long t0 = System.nanoTime();
      tracker.commit(new CommitRequest(m, sent, java.util.UUID.randomUUID().toString())); // a session, as every store sends
      if (v >= 0) {
        latencies[v] = System.nanoTime() - t0;
      }
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    long[] sorted = latencies.clone();
    Arrays.sort(sorted);
    return new StageResult("commits")
        .with("versions", count)
        .with("warmup", warmup)
        .with("chunksPerVersion", chunks)
        .with("perSec", Math.round(count / elapsed * 10) / 10.0)
        .with("p50Ms", HeartbeatLoad.millis(sorted, 0.50))
        .with("p99Ms", HeartbeatLoad.millis(sorted, 0.99))
        .with("maxMs", sorted.length == 0 ? 0.0 : sorted[sorted.length - 1] / 1e6)
        .with("seconds", Math.round(elapsed * 10) / 10.0);
  }

  /** A client for the stage: the trackers as given, a generous timeout. */
  public static TrackerClient client(List<java.net.URI> trackers, org.cairn.core.security.GridToken token) {
    return new TrackerClient(trackers, token, Duration.ofSeconds(30));
  }
}
