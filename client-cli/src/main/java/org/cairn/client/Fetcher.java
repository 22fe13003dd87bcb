package org.cairn.client;

import org.cairn.core.net.PeerConnection;
import org.cairn.core.api.TrackerHttp;
import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.cairn.core.CorruptDataException;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.manifest.Manifest;
import org.cairn.core.pipeline.FetchPipeline;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.security.GridToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Fetches a version (FALCON "Recover", §3.3): the manifest and each chunk's holders come from the
 * tracker; for every chunk all holders that are not DOWN are asked at once, the chunk is decoded
 * from the first m fragments that verify, and the slower answers are dropped when they arrive. Up
 * to k dead, loaded or slow hosts per chunk neither fail nor wait the fetch. Chunks are rebuilt in
 * parallel by the core fetch pipeline and written in order.
 */
public final class Fetcher {
  private static final Logger LOG = LoggerFactory.getLogger(Fetcher.class);

  /** Chunks fetched ahead of the writer are bounded by about this many bytes (pieces plus decoded chunks). */
  static final long IN_FLIGHT_BYTES = 64L << 20;

  /** What a fetch did. */
  public record Result(String app, String node, long step, long size, String kind, double seconds) {}

  private final TrackerHttp tracker;
  private final GridToken token;
  private final EventLoopGroup group;
  private final Duration timeout;
  private final Map<String, CompletableFuture<PeerConnection>> connections = new ConcurrentHashMap<>();
  /** Bad pieces seen: holder id -> hex fragment key -> why; reported to the tracker after the fetch. */
  private final Map<String, Map<String, String>> bad = new ConcurrentHashMap<>();

  private final boolean readAll;

  public Fetcher(TrackerHttp tracker, GridToken token, EventLoopGroup group, Duration timeout) {
    this(tracker, token, group, timeout, true);
  }

  /**
   * @param readAll true (the default): ask every live holder of a chunk at once and use the first m
   *     answers; false: ask m holders (data pieces first) and one more for each that fails, the
   *     sequential baseline of FALCON Fig. 9, which waits for the slowest of the m it asked
   */
  public Fetcher(TrackerHttp tracker, GridToken token, EventLoopGroup group, Duration timeout, boolean readAll) {
    this.tracker = tracker;
    this.token = token;
    this.group = group;
    this.timeout = timeout;
    this.readAll = readAll;
  }

  /** The manifest of app/node/step (latest when step <= 0) with holders, from the tracker. */
  public JsonNode locate(String app, String node, long step) throws IOException {
    return tracker.get("/api/v1/manifest", Map.of("app", app, "node", node, "step", step > 0 ? Long.toString(step) : "latest"));
  }

  public Result fetch(JsonNode located, int threads, OutputStream out) throws IOException {
    long start = System.nanoTime();
    Manifest manifest = Manifest.fromJson(TrackerHttp.JSON.writeValueAsString(located.get("manifest")));
    JsonNode holders = located.get("holders");
    int m = org.cairn.core.erasure.Redundancy.parse(manifest.redundancy()).dataFragments();
    try {
      int largest = 1;
      for (org.cairn.core.manifest.ChunkRef ref : manifest.chunks()) {
        largest = Math.max(largest, ref.length());
      }
      // chunks in flight: their pieces on the way plus decoded chunks waiting to be written stay near IN_FLIGHT_BYTES
      int window = (int) Math.max(2L * threads, Math.min(64, IN_FLIGHT_BYTES / (largest * 5L / 2)));
      long size = new FetchPipeline(threads, window).fetchAsync(manifest.chunks(), (index, ref) -> fragments(ref, holders.path(ref.id().hex()), m), out);
      return new Result(manifest.app(), manifest.node(), manifest.step(), size, manifest.kind(), (System.nanoTime() - start) / 1e9);
    } finally {
      for (CompletableFuture<PeerConnection> c : connections.values()) {
        c.thenAccept(PeerConnection::close);
      }
      reportBad();
    }
  }

  /** Tells the tracker which pieces arrived corrupt, so repair replaces them (best effort). */
  private void reportBad() {
    for (Map.Entry<String, Map<String, String>> e : bad.entrySet()) {
      List<Map<String, String>> fragments = new ArrayList<>();
      e.getValue().forEach((k, why) -> fragments.add(Map.of("key", k, "reason", why)));
      try {
        tracker.post("/api/v1/peers/" + e.getKey() + "/bad", Map.of("reporter", "client fetch", "fragments", fragments));
        LOG.warn("reported {} bad pieces on {} to the tracker", fragments.size(), e.getKey());
      } catch (IOException ex) {
        LOG.warn("could not report {} bad pieces on {}: {}", fragments.size(), e.getKey(), ex.getMessage());
      }
    }
    bad.clear();
  }

  /** Asks every live holder of the chunk at once; completes as soon as m fragments verify. */
  private CompletableFuture<Fragment[]> fragments(ChunkRef ref, JsonNode holders, int m) {
    int n = holders.size();
    List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Integer> live = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      JsonNode h = holders.get(i);
      if (h == null || h.isNull()) {
        problems.add("fragment " + i + ": no holder");
      } else if ("DOWN".equals(h.path("state").asText())) {
        problems.add("fragment " + i + ": holder " + h.path("id").asText() + " is DOWN");
      } else {
        live.add(i);
      }
    }
    if (live.isEmpty()) {
      return CompletableFuture.failedFuture(
          new IOException("chunk " + ref.id().shortHex() + ": no live holder (" + String.join("; ", problems) + ")"));
    }
    Fragment[] got = new Fragment[n];
    int[] verified = {0};
    int[] answered = {0};
    // asked[0]: how many of `live` have been asked; all at once, or (first-m) m, then one more per failure
    int[] asked = {readAll ? live.size() : Math.min(live.size(), Math.max(1, m))};
    CompletableFuture<Void> done = new CompletableFuture<>();
    java.util.function.IntConsumer[] ask = new java.util.function.IntConsumer[1];
    ask[0] = index -> {
      String address = holders.get(index).path("address").asText();
      connection(address)
          .thenCompose(c -> c.call(FrameType.GET, Unpooled.wrappedBuffer(new FragmentKey(ref.id(), index).toBytes())))
          .whenComplete((frame, error) -> {
            Fragment f = null;
            String problem = null;
            if (error != null) {
              problem = "fragment " + index + " from " + address + ": " + error.getMessage();
              connections.remove(address);
            } else {
              try {
                if (frame.type() != FrameType.FRAGMENT) {
                  problem = "fragment " + index + " from " + address + ": " + frame.type() + " "
                      + frame.payload().toString(java.nio.charset.StandardCharsets.UTF_8);
                } else {
                  f = Fragment.parse(ByteBufUtil.getBytes(frame.payload()));
                  if (!f.chunkId().equals(ref.id()) || f.index() != index) {
                    problem = "fragment " + index + " from " + address + " is another fragment";
                    f = null;
                  }
                }
              } catch (CorruptDataException e) {
                problem = "fragment " + index + " from " + address + " is corrupt: " + e.getMessage();
                bad.computeIfAbsent(holders.get(index).path("id").asText(), x -> new ConcurrentHashMap<>())
                    .put(java.util.HexFormat.of().formatHex(new FragmentKey(ref.id(), index).toBytes()), "corrupt on arrival: " + e.getMessage());
              } finally {
                frame.release();
              }
            }
            int another = -1;
            synchronized (got) {
              if (f != null) {
                got[index] = f;
                verified[0]++;
              } else {
                problems.add(problem);
                if (asked[0] < live.size()) {
                  another = live.get(asked[0]++);
                }
              }
              answered[0]++;
              // enough to decode, or nobody left to answer: the decoder says if it is not enough
              if ((f != null && verified[0] >= f.dataFragments()) || (answered[0] == asked[0] && another < 0)) {
                done.complete(null);
              }
            }
            if (another >= 0) {
              ask[0].accept(another);
            }
          });
    };
    int first;
    synchronized (got) {
      first = asked[0];
    }
    for (int i = 0; i < first; i++) {
      ask[0].accept(live.get(i));
    }
    return done.orTimeout(timeout.toMillis() * 6, TimeUnit.MILLISECONDS).handle((x, error) -> {
      if (error != null) {
        throw new java.util.concurrent.CompletionException(new IOException("chunk " + ref.id().shortHex()
            + ": holders did not answer in time (" + String.join("; ", problems) + ")"));
      }
      synchronized (got) {
        if (!problems.isEmpty()) {
          LOG.info("chunk {}: {}", ref.id().shortHex(), String.join("; ", problems));
        }
        int need = firstM(got);
        if (need == 0 || verified[0] < need) {
          throw new java.util.concurrent.CompletionException(new CorruptDataException("chunk " + ref.id().shortHex()
              + ": only " + verified[0] + " good fragments (" + String.join("; ", problems) + ")"));
        }
        return got.clone(); // later answers cannot change the decoder's copy
      }
    });
  }

  private static int firstM(Fragment[] got) {
    for (Fragment f : got) {
      if (f != null) {
        return f.dataFragments();
      }
    }
    return 0;
  }

  private CompletableFuture<PeerConnection> connection(String address) {
    return connections.computeIfAbsent(address, a -> PeerConnection.connect(group, a, token, timeout));
  }
}
