package org.cairn.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.cairn.core.CorruptDataException;
import org.cairn.core.api.TrackerHttp;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.net.PeerConnection;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.security.GridToken;

/*
 * `cairn verify` (like `restic check [--read-data]`): does every chunk of a version have at least m
 * pieces that exist? Without --read-data each live holder is asked whether it holds its pieces (HAS,
 * batched per peer); with --read-data every live piece is read, verified (CRC of header and payload)
 * and the chunk is decoded from all good pieces and checked against its id. Bad pieces found while
 * reading are reported to the tracker, which has them repaired.
 */
public final class Verifier {
  /** What a verification found. {@code problems} names at most a few dozen chunks. */
  public record Report(String app, String node, long step, String redundancy, int chunks, int healthy, int degraded, int lost,
      long piecesChecked, long piecesBad, List<String> problems) {
    public boolean restorable() {
      return lost == 0;
    }
  }

  private final TrackerHttp tracker;
  private final GridToken token;
  private final EventLoopGroup group;
  private final Duration timeout;
  private final Map<String, CompletableFuture<PeerConnection>> connections = new ConcurrentHashMap<>();

  public Verifier(TrackerHttp tracker, GridToken token, EventLoopGroup group, Duration timeout) {
    this.tracker = tracker;
    this.token = token;
    this.group = group;
    this.timeout = timeout;
  }

  public Report verify(JsonNode located, boolean readData, int threads) throws IOException {
    JsonNode manifest = located.path("manifest");
    JsonNode holders = located.path("holders");
    String redundancy = manifest.path("redundancy").asText();
    int m = Redundancy.parse(redundancy).dataFragments();
    Set<String> ids = new LinkedHashSet<>();
    for (JsonNode c : manifest.path("chunks")) {
      ids.add(c.path("id").asText());
    }
    List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
    Map<String, Integer> good = new ConcurrentHashMap<>();
    long[] checked = {0};
    long[] bad = {0};
    try {
      if (readData) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
        try {
          Map<String, Future<int[]>> results = new LinkedHashMap<>();
          for (String id : ids) {
            results.put(id, pool.submit(() -> readChunk(ChunkId.parse(id), holders.path(id), problems)));
          }
          for (Map.Entry<String, Future<int[]>> e : results.entrySet()) {
            int[] r = e.getValue().get();
            good.put(e.getKey(), r[0]);
            checked[0] += r[1];
            bad[0] += r[2];
          }
        } catch (ExecutionException e) {
          throw new IOException(e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", e);
        } finally {
          pool.shutdownNow();
        }
      } else {
        checked[0] = askHolders(ids, holders, good, problems);
      }
    } finally {
      for (CompletableFuture<PeerConnection> c : connections.values()) {
        c.thenAccept(PeerConnection::close);
      }
    }
    int healthy = 0;
    int degraded = 0;
    int lost = 0;
    for (String id : ids) {
      int g = good.getOrDefault(id, 0);
      int n = holders.path(id).size();
      if (g >= n && n > 0) {
        healthy++;
      } else if (g >= m) {
        degraded++;
      } else {
        lost++;
        problems.add("chunk " + id.substring(0, 12) + ": " + g + " good pieces, needs " + m);
      }
    }
    List<String> shown = problems.size() > 40 ? new ArrayList<>(problems.subList(0, 40)) : new ArrayList<>(problems);
    return new Report(manifest.path("app").asText(), manifest.path("node").asText(), manifest.path("step").asLong(), redundancy,
        ids.size(), healthy, degraded, lost, checked[0], bad[0], shown);
  }

  /** HAS per live holder, batched; returns pieces asked about. */
  private long askHolders(Set<String> ids, JsonNode holders, Map<String, Integer> good, List<String> problems) throws IOException {
    Map<String, List<String[]>> byAddress = new LinkedHashMap<>(); // address -> [chunk id, index, tag]
    for (String id : ids) {
      JsonNode hs = holders.path(id);
      for (int i = 0; i < hs.size(); i++) {
        JsonNode h = hs.get(i);
        if (h != null && !h.isNull() && !"DOWN".equals(h.path("state").asText())) {
          byAddress.computeIfAbsent(h.path("address").asText(), a -> new ArrayList<>())
              .add(new String[] {id, Integer.toString(i), h.path("tag").asText()});
        }
      }
    }
    long asked = 0;
    for (Map.Entry<String, List<String[]>> e : byAddress.entrySet()) {
      List<String[]> pieces = e.getValue();
      for (int from = 0; from < pieces.size(); from += 10_000) {
        List<String[]> batch = pieces.subList(from, Math.min(pieces.size(), from + 10_000));
        List<FragmentKey> keys = new ArrayList<>();
        for (String[] p : batch) {
          keys.add(new FragmentKey(ChunkId.parse(p[0]), Integer.parseInt(p[1]), FragmentKey.parseTag(p[2])));
        }
        asked += keys.size();
        Frame answer;
        try {
          answer = call(e.getKey(), FrameType.HAS, () -> {
            ByteBuf payload = Unpooled.buffer(4 + keys.size() * FragmentKey.SIZE);
            FragmentKey.encodeList(keys, payload);
            return payload;
          });
        } catch (IOException ex) {
          problems.add("peer " + e.getKey() + ": " + ex.getMessage());
          continue;
        }
        try {
          byte[] held = ByteBufUtil.getBytes(answer.payload());
          if (answer.type() != FrameType.HAS_RESULT || held.length != keys.size()) {
            problems.add("peer " + e.getKey() + " answered " + answer.type());
            continue;
          }
          for (int j = 0; j < held.length; j++) {
            if (held[j] == 1) {
              good.merge(batch.get(j)[0], 1, Integer::sum);
            }
          }
        } finally {
          answer.release();
        }
      }
    }
    return asked;
  }

  /** Reads every live piece of a chunk: {good pieces, pieces read, bad pieces}. */
  private int[] readChunk(ChunkId id, JsonNode hs, List<String> problems) throws IOException {
    Fragment[] got = new Fragment[hs.size()];
    int read = 0;
    int bad = 0;
    Map<String, String> badByHolder = new LinkedHashMap<>();
    for (int i = 0; i < hs.size(); i++) {
      JsonNode h = hs.get(i);
      if (h == null || h.isNull() || "DOWN".equals(h.path("state").asText())) {
        continue;
      }
      read++;
      FragmentKey key = new FragmentKey(id, i, FragmentKey.parseTag(h.path("tag").asText()));
      try {
        Frame answer = call(h.path("address").asText(), FrameType.GET, () -> Unpooled.wrappedBuffer(key.toBytes()));
        try {
          if (answer.type() != FrameType.FRAGMENT) {
            problems.add("chunk " + id.shortHex() + " piece " + i + " on " + h.path("id").asText() + ": " + answer.type() + " "
                + answer.payload().toString(StandardCharsets.UTF_8));
            bad++;
            continue;
          }
          Fragment f = Fragment.parse(ByteBufUtil.getBytes(answer.payload()));
          if (!f.chunkId().equals(id) || f.index() != i || f.tag() != key.tag()) {
            throw new CorruptDataException("holds another fragment under this key");
          }
          got[i] = f;
        } finally {
          answer.release();
        }
      } catch (CorruptDataException e) {
        bad++;
        problems.add("chunk " + id.shortHex() + " piece " + i + " on " + h.path("id").asText() + " is corrupt: " + e.getMessage());
        badByHolder.put(h.path("id").asText() + "/" + HexFormat.of().formatHex(key.toBytes()), e.getMessage());
      } catch (IOException e) {
        problems.add("chunk " + id.shortHex() + " piece " + i + " on " + h.path("id").asText() + ": " + e.getMessage());
      }
    }
    int good = 0;
    for (Fragment f : got) {
      good += f == null ? 0 : 1;
    }
    if (good > 0) {
      try {
        ChunkCodec.decode(id, got); // all good pieces must agree and decode to the chunk's id
      } catch (CorruptDataException e) {
        problems.add("chunk " + id.shortHex() + " does not decode: " + e.getMessage());
        good = 0;
      }
    }
    for (Map.Entry<String, String> e : badByHolder.entrySet()) {
      String[] hk = e.getKey().split("/", 2);
      try {
        tracker.post("/api/v1/peers/" + hk[0] + "/bad", Map.of("reporter", "cairn verify",
            "fragments", List.of(Map.of("key", hk[1], "reason", e.getValue()))));
      } catch (IOException ex) {
        problems.add("could not report a bad piece on " + hk[0] + ": " + ex.getMessage());
      }
    }
    return new int[] {good, read, bad};
  }

  /** One request; the payload is made only once connected, so a failed connect leaves no buffer to release. */
  private Frame call(String address, FrameType type, java.util.function.Supplier<ByteBuf> payload) throws IOException {
    CompletableFuture<PeerConnection> c = connections.computeIfAbsent(address, a -> PeerConnection.connect(group, a, token, timeout));
    try {
      return c.thenCompose(pc -> pc.call(type, payload.get())).get(timeout.toMillis() * 3, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      connections.remove(address);
      throw new IOException(e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      connections.remove(address);
      throw new IOException("no answer from " + address);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
