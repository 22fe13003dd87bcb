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
import java.util.concurrent.TimeUnit;
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

  /** How a chunk's pieces are asked for. */
  public enum ReadMode {
    /** every live holder at once; the first m answers are used */
    ALL,
    /** m holders (data pieces first), one more for each that fails */
    FIRST_M,
    /** m holders, one more for each that fails or is slower than a few typical piece times */
    HEDGED;

    public static ReadMode parse(String s) {
      switch (s) {
        case "all":
          return ALL;
        case "first-m":
          return FIRST_M;
        case "hedged":
          return HEDGED;
        default:
          throw new IllegalArgumentException("read mode must be all, first-m or hedged, was '" + s + "'");
      }
    }
  }

  private final ReadMode mode;
  private int inFlightChunks;

  /** Chunks fetched ahead of the writer; 0 (the default) sizes the window from IN_FLIGHT_BYTES. */
  public Fetcher inFlightChunks(int chunks) {
    if (chunks < 0 || chunks > 1024) {
      throw new IllegalArgumentException("chunks in flight must be 0 (auto) to 1024, was " + chunks);
    }
    this.inFlightChunks = chunks;
    return this;
  }
  /** Smoothed time each holder (by address) took to deliver a piece in this fetch: hedged reads ask the fastest first. */
  private final Map<String, Long> holderNanos = new ConcurrentHashMap<>();

  public Fetcher(TrackerHttp tracker, GridToken token, EventLoopGroup group, Duration timeout) {
    this(tracker, token, group, timeout, ReadMode.ALL);
  }

  /**
   * @param mode ALL: ask every live holder of a chunk at once and use the first m answers;
   *     FIRST_M: ask m holders (data pieces first) and one more for each that fails, the sequential
   *     baseline of FALCON Fig. 9, which waits for the slowest of the m it asked; HEDGED: as FIRST_M,
   *     and one more holder when, after a piece arrived, none follows for HEDGE_FACTOR times the chunk's
   *     time so far; the m asked first are the holders that have answered fastest in this fetch
   */
  public Fetcher(TrackerHttp tracker, GridToken token, EventLoopGroup group, Duration timeout, ReadMode mode) {
    this.tracker = tracker;
    this.token = token;
    this.group = group;
    this.timeout = timeout;
    this.mode = mode;
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
      int window = inFlightChunks > 0 ? inFlightChunks
          : (int) Math.max(2L * threads, Math.min(64, IN_FLIGHT_BYTES / (largest * 5L / 2)));
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
    if (mode == ReadMode.HEDGED) {
      // the holders that answered fastest so far in this fetch first (unknown ones first, data pieces before parity on ties)
      live.sort(java.util.Comparator.comparingLong(i -> holderNanos.getOrDefault(holders.get(i).path("address").asText(), 0L)));
    }
    int ready = live.size();
    if (mode == ReadMode.ALL) {
      // every holder at once, except one still answering MAX_BACKLOG earlier chunks' requests (a slow holder:
      // its answers would come after the chunk is decoded, and its backlog would grow without end); those go last,
      // asked only when another fails, unless fewer than m holders are left without them
      List<Integer> idle = new ArrayList<>();
      List<Integer> backlogged = new ArrayList<>();
      for (int i : live) {
        (backlog(holders.get(i).path("address").asText()).get() < MAX_BACKLOG ? idle : backlogged).add(i);
      }
      if (idle.size() >= m) {
        live.clear();
        live.addAll(idle);
        live.addAll(backlogged);
        ready = idle.size();
      }
    }
    Fragment[] got = new Fragment[n];
    int[] verified = {0};
    int[] answered = {0};
    // asked[0]: how many of `live` have been asked; all at once, or (first-m) m, then one more per failure
    int[] asked = {mode == ReadMode.ALL ? ready : Math.min(live.size(), Math.max(1, m))};
    CompletableFuture<Void> done = new CompletableFuture<>();
    long start = System.nanoTime();
    java.util.function.IntConsumer[] ask = new java.util.function.IntConsumer[1];
    ask[0] = index -> {
      String address = holders.get(index).path("address").asText();
      FragmentKey key = new FragmentKey(ref.id(), index, FragmentKey.parseTag(holders.get(index).path("tag").asText()));
      long askedAt = System.nanoTime();
      java.util.concurrent.atomic.AtomicInteger backlog = backlog(address);
      backlog.incrementAndGet();
      connection(address)
          .thenCompose(c -> c.call(FrameType.GET, Unpooled.wrappedBuffer(key.toBytes())))
          .whenComplete((frame, error) -> {
            backlog.decrementAndGet();
            if (done.isDone()) {
              // the chunk is decoded (or given up): a late answer is dropped, not kept alive by this closure
              if (frame != null) {
                if (frame.type() == FrameType.FRAGMENT) {
                  holderNanos.merge(address, System.nanoTime() - askedAt, (old, now) -> (old * 3 + now) / 4);
                }
                frame.release();
              }
              return;
            }
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
                  if (!f.chunkId().equals(ref.id()) || f.index() != index || f.tag() != key.tag()) {
                    problem = "fragment " + index + " from " + address + " is another fragment";
                    f = null;
                  }
                }
              } catch (CorruptDataException e) {
                problem = "fragment " + index + " from " + address + " is corrupt: " + e.getMessage();
                bad.computeIfAbsent(holders.get(index).path("id").asText(), x -> new ConcurrentHashMap<>())
                    .put(java.util.HexFormat.of().formatHex(key.toBytes()), "corrupt on arrival: " + e.getMessage());
              } finally {
                frame.release();
              }
            }
            int another = -1;
            if (f != null) {
              long took = System.nanoTime() - askedAt;
              holderNanos.merge(address, took, (old, now) -> (old * 3 + now) / 4);
            }
            int verifiedNow;
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
              verifiedNow = verified[0];
              // enough to decode, or nobody left to answer: the decoder says if it is not enough
              if ((f != null && verified[0] >= f.dataFragments()) || (answered[0] == asked[0] && another < 0)) {
                done.complete(null);
              }
            }
            if (another >= 0) {
              ask[0].accept(another);
            }
            if (mode == ReadMode.HEDGED && f != null && verifiedNow < f.dataFragments()) {
              hedge(ask[0], live, asked, got, verified, verifiedNow, done, System.nanoTime() - start);
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
        Fragment[] copy = got.clone(); // later answers cannot change the decoder's copy
        java.util.Arrays.fill(got, null); // and requests still out do not keep these pieces alive
        return copy;
      }
    });
  }

  /**
   * Hedged reads: after a piece arrives, if no further piece arrives within HEDGE_FACTOR times the
   * time the chunk has taken so far, one more holder is asked (and so on). The chunk's own first
   * answers set the pace, so a holder many times slower than its peers is worked around after about
   * three of their piece times, and nothing extra is asked while pieces keep arriving.
   */
  static final int HEDGE_FACTOR = 2;

  private void hedge(java.util.function.IntConsumer ask, List<Integer> live, int[] asked, Fragment[] got, int[] verified, int seen,
      CompletableFuture<Void> done, long elapsed) {
    long delay = Math.max(TimeUnit.MILLISECONDS.toNanos(10), HEDGE_FACTOR * elapsed);
    group.schedule(() -> {
      int another = -1;
      synchronized (got) {
        if (!done.isDone() && verified[0] == seen && asked[0] < live.size()) {
          another = live.get(asked[0]++);
        }
      }
      if (another >= 0) {
        ask.accept(another);
        hedge(ask, live, asked, got, verified, seen, done, elapsed + delay);
      }
    }, delay, TimeUnit.NANOSECONDS);
  }

  /** Requests a holder may have outstanding before `--read all` stops asking it for further chunks. */
  static final int MAX_BACKLOG = 8;
  private final Map<String, java.util.concurrent.atomic.AtomicInteger> backlogs = new ConcurrentHashMap<>();

  private java.util.concurrent.atomic.AtomicInteger backlog(String address) {
    return backlogs.computeIfAbsent(address, a -> new java.util.concurrent.atomic.AtomicInteger());
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
