package org.cairn.peer.repair;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.LocatedChunk;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.api.repair.RepairOutcome;
import org.cairn.core.compress.Compressor;
import org.cairn.core.config.HostPort;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.net.PeerClient;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.pipeline.ChunkDecoder;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.security.GridToken;
import org.cairn.peer.load.Throttle;
import org.cairn.peer.server.Admission;
import org.cairn.peer.server.DataServer;
import org.cairn.peer.store.FragmentStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Repair jobs run against real data servers on loopback: pieces are read through the ChunkReader
 * (this peer's own from its store), rebuilt, and stored on the targets; a source missing its piece
 * is reported to a stub tracker.
 */
class RepairWorkerTest {
  /** An address nobody listens on: reading this peer's own pieces over the network would fail. */
  private static final String NOWHERE = "127.0.0.1:1";

  @TempDir
  Path dir;

  private final GridToken token = GridToken.of(GridToken.generate());
  private final List<AutoCloseable> open = new ArrayList<>();
  private final List<String> trackerCalls = new CopyOnWriteArrayList<>();
  private EventLoopGroup group;
  private PeerClient peers;
  private TrackerClient tracker;
  private Fragment[] pieces;
  private List<String> tags;
  private ChunkId id;

  @BeforeEach
  void setUp() throws IOException {
    byte[] chunk = new byte[64 * 1024];
    new Random(17).nextBytes(chunk);
    id = ChunkId.of(chunk);
    pieces = new ChunkCodec(Compressor.parse("none"), Redundancy.parse("code:4+2")).encode(id, chunk, chunk.length);
    tags = new ArrayList<>();
    for (Fragment f : pieces) {
      tags.add(FragmentKey.tagHex(f.tag()));
    }
    group = new NioEventLoopGroup(1);
    peers = new PeerClient(group, token, Duration.ofSeconds(5));
    HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext("/", exchange -> {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      trackerCalls.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " " + body);
      byte[] answer = "{\"changed\":1}".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, answer.length);
      exchange.getResponseBody().write(answer);
      exchange.close();
    });
    http.start();
    open.add(() -> http.stop(0));
    tracker = new TrackerClient(URI.create("http://127.0.0.1:" + http.getAddress().getPort()), token, Duration.ofSeconds(5));
  }

  @AfterEach
  void tearDown() throws Exception {
    peers.close();
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private FragmentStore store(String name, int... held) throws IOException {
    FragmentStore s = FragmentStore.open(dir.resolve(name));
    open.add(s);
    List<byte[]> bytes = new ArrayList<>();
    for (int i : held) {
      bytes.add(pieces[i].toBytes());
    }
    if (!bytes.isEmpty()) {
      s.putAll(bytes);
    }
    return s;
  }

  private String serve(FragmentStore s) throws InterruptedException {
    DataServer server = new DataServer(HostPort.parse("127.0.0.1:0"), token, s, Admission.OPEN, 0);
    open.add(server);
    return "127.0.0.1:" + server.port();
  }

  private RepairWorker worker(FragmentStore self) {
    RepairWorker w = new RepairWorker("self", tracker, self, peers, 1, new Throttle(0), Duration.ofSeconds(5), () -> true);
    open.add(w);
    return w;
  }

  private RepairJob job(List<RepairJob.Piece> sources, List<RepairJob.Piece> targets) {
    return new RepairJob("job-1", "app", id.hex(), "code:4+2", pieces[0].payload().length, sources, targets, tags);
  }

  private FragmentKey key(int i) {
    return FragmentKey.of(pieces[i]);
  }

  @Test
  void execute_rebuildsLostPiecesFromRemoteAndOwnPieces_andStoresThemOnTheTargets() throws Exception {
    FragmentStore a = store("a", 0, 1);
    FragmentStore b = store("b");
    FragmentStore self = store("self", 2, 3);
    String addrA = serve(a);
    String addrB = serve(b);
    RepairJob job = job(
        List.of(new RepairJob.Piece(0, "a", addrA), new RepairJob.Piece(1, "a", addrA), new RepairJob.Piece(2, "self", NOWHERE),
            new RepairJob.Piece(3, "self", NOWHERE)),
        List.of(new RepairJob.Piece(4, "b", addrB), new RepairJob.Piece(5, "self", NOWHERE)));

    RepairWorker worker = worker(self);
    List<FragmentKey> storedLocally = new CopyOnWriteArrayList<>();
    worker.onStoredLocally(storedLocally::addAll);
    RepairOutcome outcome = worker.execute(job);

    assertThat(outcome.error()).isNull();
    assertThat(outcome.placed()).containsExactlyElementsOf(job.targets());
    assertThat(b.get(key(4))).as("piece 4 on its target").isEqualTo(pieces[4].toBytes());
    assertThat(self.get(key(5))).as("piece 5 in this peer's own store").isEqualTo(pieces[5].toBytes());
    assertThat(storedLocally).as("only the piece stored here is told, to be listed to the tracker soon").containsExactly(key(5));
    assertThat(trackerCalls).as("nothing was bad").isEmpty();
  }

  @Test
  void execute_rebuildsAnEncryptedChunk_withoutTheKey_bitForBit() throws Exception {
    // the client sealed this chunk with its app key; this peer never has the key
    byte[] chunk = new byte[64 * 1024];
    new Random(18).nextBytes(chunk);
    org.cairn.core.crypto.ChunkCrypto sealing = org.cairn.core.crypto.AppKey.generate("app", java.time.Instant.EPOCH)
        .crypto(org.cairn.core.crypto.Encryption.AES_GCM);
    ChunkCodec codec = new ChunkCodec(Compressor.parse("zstd"), Redundancy.parse("code:4+2"), sealing);
    id = codec.id(chunk, chunk.length);
    pieces = codec.encode(id, chunk, chunk.length);
    tags = new ArrayList<>();
    for (Fragment f : pieces) {
      tags.add(FragmentKey.tagHex(f.tag()));
    }
    FragmentStore a = store("a", 0, 1);
    FragmentStore b = store("b");
    FragmentStore self = store("self", 2, 3);
    String addrA = serve(a);
    String addrB = serve(b);
    RepairJob job = job(
        List.of(new RepairJob.Piece(0, "a", addrA), new RepairJob.Piece(1, "a", addrA), new RepairJob.Piece(2, "self", NOWHERE),
            new RepairJob.Piece(3, "self", NOWHERE)),
        List.of(new RepairJob.Piece(4, "b", addrB), new RepairJob.Piece(5, "self", NOWHERE)));

    RepairOutcome outcome = worker(self).execute(job);

    assertThat(outcome.error()).isNull();
    assertThat(outcome.placed()).containsExactlyElementsOf(job.targets());
    assertThat(b.get(key(4))).as("sealed piece 4 on its target").isEqualTo(pieces[4].toBytes());
    assertThat(self.get(key(5))).as("sealed piece 5 in this peer's own store").isEqualTo(pieces[5].toBytes());
    Fragment[] back = {Fragment.parse(b.get(key(4))), Fragment.parse(self.get(key(5))), pieces[2], pieces[3], null, null};
    assertThat(ChunkDecoder.decode(id, back, sealing)).as("the client opens the rebuilt pieces with its key").isEqualTo(chunk);
  }

  @Test
  void execute_failsAJobThatAsksForAPieceTheChunksCodingHasNot_withTheReason_andStoresNothing() throws Exception {
    FragmentStore a = store("a", 0, 1);
    FragmentStore self = store("self", 2, 3);
    String addrA = serve(a);
    RepairJob job = job(
        List.of(new RepairJob.Piece(0, "a", addrA), new RepairJob.Piece(1, "a", addrA), new RepairJob.Piece(2, "self", NOWHERE),
            new RepairJob.Piece(3, "self", NOWHERE)),
        List.of(new RepairJob.Piece(6, "self", NOWHERE))); // code:4+2 has pieces 0..5

    RepairOutcome outcome = worker(self).execute(job);

    assertThat(outcome.error()).contains("has pieces 0..5, the job asks for 6");
    assertThat(outcome.placed()).isEmpty();
    assertThat(self.get(key(4))).as("nothing rebuilt was stored").isNull();
  }

  @Test
  void execute_readsAnotherSourceWhenOneDoesNotHoldItsPiece_andReportsIt() throws Exception {
    FragmentStore a = store("a", 0); // the index says a holds 1 too
    FragmentStore b = store("b", 4);
    FragmentStore self = store("self", 2, 3);
    String addrA = serve(a);
    String addrB = serve(b);
    RepairJob job = job(
        List.of(new RepairJob.Piece(0, "a", addrA), new RepairJob.Piece(1, "a", addrA), new RepairJob.Piece(2, "self", NOWHERE),
            new RepairJob.Piece(3, "self", NOWHERE), new RepairJob.Piece(4, "b", addrB)),
        List.of(new RepairJob.Piece(5, "self", NOWHERE)));

    RepairOutcome outcome = worker(self).execute(job);

    assertThat(outcome.error()).isNull();
    assertThat(self.get(key(5))).isEqualTo(pieces[5].toBytes());
    assertThat(trackerCalls).singleElement().asString()
        .startsWith("POST /api/v1/peers/a/bad ")
        .contains(HexFormat.of().formatHex(key(1).toBytes()))
        .contains("\"reporter\":\"self\"")
        .contains("not held");
  }

  @Test
  void execute_failsWithTheReasonWhenTooFewPiecesCanBeRead() throws Exception {
    FragmentStore a = store("a", 0, 1);
    FragmentStore b = store("b");
    FragmentStore self = store("self", 2);
    String addrA = serve(a);
    String addrB = serve(b);
    RepairJob job = job(
        List.of(new RepairJob.Piece(0, "a", addrA), new RepairJob.Piece(1, "a", addrA), new RepairJob.Piece(2, "self", NOWHERE)),
        List.of(new RepairJob.Piece(4, "b", addrB)));

    RepairOutcome outcome = worker(self).execute(job);

    assertThat(outcome.placed()).isEmpty();
    assertThat(outcome.error()).contains("could not read enough pieces").contains("3 good pieces of 4");
    assertThat(b.contains(key(4))).isFalse();
  }

  /** Sources the tracker lists DOWN are read after the live ones, and complete a chunk live ones hold fewer than m pieces of. */
  @Test
  void execute_readsSourcesListedDownLast_andRebuildsFromThem() throws Exception {
    FragmentStore a = store("a", 0, 1);
    FragmentStore c = store("c", 2, 3);
    FragmentStore b = store("b");
    String addrA = serve(a);
    String addrC = serve(c);
    String addrB = serve(b);
    RepairJob job = job(
        List.of(new RepairJob.Piece(0, "a", addrA, "RUNNING"), new RepairJob.Piece(1, "a", addrA, "RUNNING"),
            new RepairJob.Piece(2, "c", addrC, "DOWN"), new RepairJob.Piece(3, "c", addrC, "DOWN")),
        List.of(new RepairJob.Piece(4, "b", addrB)));

    RepairOutcome outcome = worker(store("self")).execute(job);

    assertThat(outcome.error()).isNull();
    assertThat(outcome.unreachable()).isEmpty();
    assertThat(b.get(key(4))).isEqualTo(pieces[4].toBytes());
  }

  /** A source listed DOWN that cannot be reached is named in the outcome (one that answered is not), so the tracker stops counting it. */
  @Test
  void execute_namesTheSourcesListedDownItCouldNotReach() throws Exception {
    FragmentStore a = store("a", 0, 1);
    FragmentStore c = store("c", 2);
    FragmentStore b = store("b");
    String addrA = serve(a);
    String addrC = serve(c);
    String addrB = serve(b);
    RepairJob job = job(
        List.of(new RepairJob.Piece(0, "a", addrA, "RUNNING"), new RepairJob.Piece(1, "a", addrA, "RUNNING"),
            new RepairJob.Piece(2, "c", addrC, "DOWN"), new RepairJob.Piece(3, "d", NOWHERE, "DOWN")),
        List.of(new RepairJob.Piece(4, "b", addrB)));

    RepairOutcome outcome = worker(store("self")).execute(job);

    assertThat(outcome.placed()).isEmpty();
    assertThat(outcome.error()).contains("could not read enough pieces");
    assertThat(outcome.unreachable()).containsExactly("d");
    assertThat(b.contains(key(4))).isFalse();
  }

  @Test
  void located_putsEachSourceAtItsIndexWithItsTag() {
    RepairJob job = job(List.of(new RepairJob.Piece(3, "p3", "h:3"), new RepairJob.Piece(0, "p0", "h:0")),
        List.of(new RepairJob.Piece(5, "t", "h:5")));

    LocatedChunk c = job.located();

    assertThat(c.pieces()).isEqualTo(6);
    assertThat(c.needed()).isEqualTo(4);
    assertThat(c.holder(0).id()).isEqualTo("p0");
    assertThat(c.holder(3).address()).isEqualTo("h:3");
    assertThat(c.holder(3).tag()).isEqualTo(tags.get(3));
    assertThat(c.holder(3).live()).isTrue();
    assertThat(c.holder(1)).isNull();
    assertThat(c.holder(5)).as("a target is not a source").isNull();
  }
  /** Another chunk of 4+2 pieces, from {@code seed}. */
  private Fragment[] chunkOf(int seed) throws IOException {
    byte[] chunk = new byte[64 * 1024];
    new Random(seed).nextBytes(chunk);
    return new ChunkCodec(Compressor.parse("none"), Redundancy.parse("code:4+2")).encode(ChunkId.of(chunk), chunk, chunk.length);
  }

  private static RepairJob jobOf(String jobId, Fragment[] p, List<RepairJob.Piece> sources, List<RepairJob.Piece> targets) {
    List<String> t = new ArrayList<>();
    for (Fragment f : p) {
      t.add(FragmentKey.tagHex(f.tag()));
    }
    return new RepairJob(jobId, "app", p[0].chunkId().hex(), "code:4+2", p[0].payload().length, sources, targets, t);
  }

  private static void hold(FragmentStore s, Fragment[] p, int... indices) throws IOException {
    List<byte[]> bytes = new ArrayList<>();
    for (int i : indices) {
      bytes.add(p[i].toBytes());
    }
    s.putAll(bytes);
  }

  private static List<RepairJob.Piece> fourOn(String peer, String address) {
    List<RepairJob.Piece> out = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      out.add(new RepairJob.Piece(i, peer, address));
    }
    return out;
  }

  @Test
  void aBatchStoresEveryPieceForOneTarget_inOneDurableWriteThere() throws Exception {
    FragmentStore a = store("a");
    FragmentStore b = store("b");
    FragmentStore self = store("self");
    String addrA = serve(a);
    String addrB = serve(b);
    List<RepairJob> jobs = new ArrayList<>();
    List<Fragment[]> chunks = new ArrayList<>();
    for (int c = 0; c < 3; c++) {
      Fragment[] p = chunkOf(100 + c);
      chunks.add(p);
      hold(a, p, 0, 1, 2, 3);
      jobs.add(jobOf("job-" + c, p, fourOn("a", addrA),
          List.of(new RepairJob.Piece(4, "b", addrB), new RepairJob.Piece(5, "self", NOWHERE))));
    }
    long bWrites = b.durableWrites();
    long selfWrites = self.durableWrites();

    List<RepairOutcome> outcomes = worker(self).executeAll(jobs);

    assertThat(outcomes).extracting(RepairOutcome::error).containsOnlyNulls();
    assertThat(outcomes).extracting(RepairOutcome::id).containsExactly("job-0", "job-1", "job-2");
    for (int c = 0; c < 3; c++) {
      assertThat(outcomes.get(c).placed()).containsExactlyElementsOf(jobs.get(c).targets());
      assertThat(b.get(FragmentKey.of(chunks.get(c)[4]))).isEqualTo(chunks.get(c)[4].toBytes());
      assertThat(self.get(FragmentKey.of(chunks.get(c)[5]))).isEqualTo(chunks.get(c)[5].toBytes());
    }
    assertThat(b.durableWrites() - bWrites).as("three pieces, one PUT, one durable write on the target").isEqualTo(1);
    assertThat(self.durableWrites() - selfWrites).as("and one in this peer's own store").isEqualTo(1);
  }

  @Test
  void aBatchWhoseOneChunkCannotBeRead_failsThatChunkAlone_andTheOthersLand() throws Exception {
    FragmentStore a = store("a");
    FragmentStore b = store("b");
    String addrA = serve(a);
    String addrB = serve(b);
    List<RepairJob> jobs = new ArrayList<>();
    List<Fragment[]> chunks = new ArrayList<>();
    for (int c = 0; c < 3; c++) {
      Fragment[] p = chunkOf(200 + c);
      chunks.add(p);
      if (c == 1) {
        hold(a, p, 0, 1, 2); // one piece short of m
      } else {
        hold(a, p, 0, 1, 2, 3);
      }
      jobs.add(jobOf("job-" + c, p, fourOn("a", addrA), List.of(new RepairJob.Piece(4, "b", addrB))));
    }

    List<RepairOutcome> outcomes = worker(store("self")).executeAll(jobs);

    assertThat(outcomes.get(1).error()).contains("could not read enough pieces");
    assertThat(outcomes.get(1).placed()).isEmpty();
    assertThat(b.contains(FragmentKey.of(chunks.get(1)[4]))).isFalse();
    for (int c : new int[] {0, 2}) {
      assertThat(outcomes.get(c).error()).isNull();
      assertThat(outcomes.get(c).placed()).containsExactlyElementsOf(jobs.get(c).targets());
      assertThat(b.contains(FragmentKey.of(chunks.get(c)[4]))).isTrue();
    }
  }

  @Test
  void aBatchWhoseOneTargetCannotBeReached_failsOnlyThePiecesForIt() throws Exception {
    FragmentStore a = store("a");
    FragmentStore b = store("b");
    String addrA = serve(a);
    String addrB = serve(b);
    Fragment[] p0 = chunkOf(300);
    Fragment[] p1 = chunkOf(301);
    hold(a, p0, 0, 1, 2, 3);
    hold(a, p1, 0, 1, 2, 3);
    RepairJob toB = jobOf("job-0", p0, fourOn("a", addrA), List.of(new RepairJob.Piece(4, "b", addrB)));
    RepairJob split = jobOf("job-1", p1, fourOn("a", addrA),
        List.of(new RepairJob.Piece(4, "b", addrB), new RepairJob.Piece(5, "gone", NOWHERE)));

    List<RepairOutcome> outcomes = worker(store("self")).executeAll(List.of(toB, split));

    assertThat(outcomes.get(0).error()).isNull();
    assertThat(outcomes.get(1).placed()).as("its piece for b landed with the batch's").containsExactly(split.targets().get(0));
    assertThat(outcomes.get(1).error()).contains("piece 5 on gone");
    assertThat(b.contains(FragmentKey.of(p0[4]))).isTrue();
    assertThat(b.contains(FragmentKey.of(p1[4]))).isTrue();
  }
}
