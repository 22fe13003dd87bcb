package org.cairn.client;

import org.cairn.core.net.PeerConnection;
import org.cairn.core.api.TrackerHttp;
import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.cairn.core.compress.Compressor;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.Manifest;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.pipeline.StorePipeline;
import org.cairn.core.protocol.FragmentBatch;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.protocol.Refusal;
import org.cairn.core.security.GridToken;

/*
 * Stores one checkpoint image as a version (ARCHITECTURE §3, FALCON §3.3, stdchk §IV):
 * placement from the tracker (n hosts + alternates), the core store pipeline with dedup against the
 * app's chunk index, fragment i of every new chunk to host i, all hosts in parallel, through the
 * pipeline's bounded window; a host that refuses or fails is replaced by the next alternate and only
 * the fragment in hand is resent to it. Pessimistic writes: a chunk counts as stored when all n
 * fragments are acknowledged durable. Then the manifest is committed atomically; anything that
 * fails before the commit leaves no version (the sent fragments are garbage for GC).
 */
public final class Storer {
  /** What to store and how. */
  public record Options(String app, String node, long step, Redundancy redundancy, Compressor compressor, int chunkSize,
      int threads, String placement, String kind, String clientId, boolean optimistic) {
    public Options(String app, String node, long step, Redundancy redundancy, Compressor compressor, int chunkSize, int threads,
        String placement, String kind, String clientId) {
      this(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, false);
    }
  }

  /** What a store did. */
  public record Result(String app, String node, long step, long size, long chunks, long newChunks, long sentBytes,
      double seconds, List<String> hosts, List<String> replaced) {}

  private final TrackerHttp tracker;
  private final GridToken token;
  private final EventLoopGroup group;
  private final Duration timeout;

  public Storer(TrackerHttp tracker, GridToken token, EventLoopGroup group, Duration timeout) {
    this.tracker = tracker;
    this.token = token;
    this.group = group;
    this.timeout = timeout;
  }

  public Result store(InputStream in, long sizeHint, Options o) throws IOException {
    long start = System.nanoTime();
    Redundancy r = o.redundancy();
    Map<String, Object> req = new LinkedHashMap<>();
    req.put("client", o.clientId());
    req.put("imageBytes", Math.max(0, sizeHint));
    req.put("m", r.dataFragments());
    req.put("k", r.parityFragments());
    req.put("policy", o.placement());
    req.put("alternates", 2 * r.totalFragments());
    JsonNode placement = tracker.post("/api/v1/placement", req);
    HostSet hosts = new HostSet(placement, group, token, timeout);
    Map<String, AtomicLong[]> traffic = new ConcurrentHashMap<>();
    // Dedup: the chunk ids the app holds, fetched once (chunks committed by others meanwhile are
    // merely sent again; the commit keeps the index's holders and the extra fragments become garbage).
    java.util.Set<ChunkId> held = new java.util.HashSet<>();
    for (JsonNode id : tracker.get("/api/v1/chunks", Map.of("app", o.app())).path("ids")) {
      held.add(ChunkId.parse(id.asText()));
    }
    List<Map<String, Object>> sent = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicLong sentBytes = new AtomicLong();
    try {
      StorePipeline pipeline = new StorePipeline(new ChunkCodec(o.compressor(), r), o.chunkSize(), o.threads());
      StorePipeline.Result res = pipeline.store(in, held::contains, (index, fragments) -> {
        // optimistic (stdchk §IV.D): only the m data pieces now; the tracker's repair queue adds the rest
        String[] holders = sendChunk(hosts, fragments, o.optimistic() ? r.dataFragments() : fragments.length, traffic, sentBytes);
        long bytes = 0;
        for (Fragment f : fragments) {
          bytes += f.serializedSize();
        }
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("id", fragments[0].chunkId().hex());
        c.put("holders", java.util.Arrays.asList(holders));
        c.put("storedBytes", bytes);
        sent.add(c);
      });
      Manifest manifest = Manifest.of(o.app(), o.node(), o.step(), o.chunkSize(), r.spec(), o.compressor().spec(), o.kind(),
          System.currentTimeMillis(), hostName(), res.chunks());
      Map<String, Object> commit = new LinkedHashMap<>();
      commit.put("manifest", TrackerHttp.JSON.readTree(manifest.toJson()));
      commit.put("chunks", sent);
      long step = tracker.post("/api/v1/versions", commit).path("step").asLong();
      reportBandwidth(o.clientId(), traffic);
      return new Result(o.app(), o.node(), step, res.bytesIn(), res.chunks().size(), res.newChunks(), sentBytes.get(),
          (System.nanoTime() - start) / 1e9, hosts.hostIds(), hosts.replaced());
    } finally {
      hosts.close();
    }
  }


  /**
   * Sends fragment i to slot i for i < count in parallel, replacing hosts that refuse or fail; the
   * holders of fragments not sent stay null.
   */
  private String[] sendChunk(HostSet hosts, Fragment[] fragments, int count, Map<String, AtomicLong[]> traffic, AtomicLong sentBytes)
      throws IOException {
    String[] holders = new String[fragments.length];
    int n = count;
    HostSet.Host[] target = new HostSet.Host[n];
    List<CompletableFuture<Frame>> answers = new ArrayList<>(n);
    long[] started = new long[n];
    for (int i = 0; i < n; i++) {
      target[i] = hosts.slot(i);
      started[i] = System.nanoTime();
      answers.add(send(hosts, target[i], fragments[i]));
    }
    for (int i = 0; i < n; i++) {
      while (holders[i] == null) {
        String failure;
        try {
          Frame answer = answers.get(i).get();
          try {
            if (answer.type() == FrameType.PUT_OK) {
              holders[i] = target[i].id();
              sentBytes.addAndGet(fragments[i].serializedSize());
              AtomicLong[] t = traffic.computeIfAbsent(target[i].id(), k -> new AtomicLong[] {new AtomicLong(), new AtomicLong()});
              t[0].addAndGet(fragments[i].serializedSize());
              t[1].addAndGet(System.nanoTime() - started[i]);
              continue;
            }
            failure = answer.type() == FrameType.REFUSED ? "refused the fragment (" + Refusal.describe(answer.payload()) + ")"
                : "answered " + answer.type() + ": " + answer.payload().toString(StandardCharsets.UTF_8);
          } finally {
            answer.release();
          }
        } catch (ExecutionException e) {
          failure = "failed: " + e.getCause().getMessage();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while storing", e);
        }
        target[i] = hosts.replace(i, target[i], failure);
        started[i] = System.nanoTime();
        answers.set(i, send(hosts, target[i], fragments[i]));
      }
    }
    return holders;
  }

  private CompletableFuture<Frame> send(HostSet hosts, HostSet.Host h, Fragment f) {
    PeerConnection c;
    try {
      c = hosts.connection(h);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
    ByteBuf batch = Unpooled.buffer(f.serializedSize() + 6);
    FragmentBatch.encode(List.of(f.toBytes()), batch);
    return c.call(FrameType.PUT, batch);
  }

  /** Passive available-bandwidth measurement (FALCON §3.2.2): bytes acknowledged per second of transfer. */
  private void reportBandwidth(String client, Map<String, AtomicLong[]> traffic) {
    for (Map.Entry<String, AtomicLong[]> e : traffic.entrySet()) {
      long bytes = e.getValue()[0].get();
      long nanos = e.getValue()[1].get();
      if (bytes >= (1 << 20) && nanos > 0) {
        try {
          tracker.post("/api/v1/bandwidth", Map.of("client", client, "peer", e.getKey(), "bytesPerSecond", bytes / (nanos / 1e9)));
        } catch (IOException ignored) {
          // a measurement that does not reach the tracker is not worth failing a committed store for
        }
      }
    }
  }

  /** This machine's host name ("unknown" if it has none). */
  public static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
