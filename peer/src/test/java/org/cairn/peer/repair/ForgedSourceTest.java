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
import java.util.zip.CRC32C;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.api.repair.RepairOutcome;
import org.cairn.core.compress.Compressor;
import org.cairn.core.config.HostPort;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.net.PeerClient;
import org.cairn.core.pipeline.ChunkCodec;
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
 * A hostile source serves a repair a forged piece whose CRCs (and so tag) are those of the real one:
 * CRC32C is linear, so the forger alters the payload by a difference whose CRC cancels out. The
 * executor rebuilds from the honest pieces anyway, and reports the forger, for plaintext and for
 * sealed chunks; when no extra piece can tell which source lies, it fails the job and accuses no one.
 */
class ForgedSourceTest {
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

  private void chunk(ChunkCodec codec) {
    byte[] chunk = new byte[64 * 1024];
    new Random(17).nextBytes(chunk);
    id = codec.id(chunk, chunk.length);
    pieces = codec.encode(id, chunk, chunk.length);
    tags = new ArrayList<>();
    for (Fragment f : pieces) {
      tags.add(FragmentKey.tagHex(f.tag()));
    }
  }

  private static ChunkCodec plain() {
    return new ChunkCodec(Compressor.parse("none"), Redundancy.parse("code:4+2"));
  }

  private static ChunkCodec sealed() {
    var crypto = org.cairn.core.crypto.AppKey.generate("app", java.time.Instant.EPOCH).crypto(org.cairn.core.crypto.Encryption.AES_GCM);
    return new ChunkCodec(Compressor.parse("zstd"), Redundancy.parse("code:4+2"), crypto);
  }

  @Test
  void aForgedPlaintextPieceWithItsCrcsIsOutvotedByAnExtraPiece_andItsHolderReported() throws Exception {
    chunk(plain());
    assertForgerIsFoundAndRepairCompletes();
  }

  @Test
  void aForgedSealedPieceWithItsCrcsIsOutvotedByAnExtraPiece_andItsHolderReported() throws Exception {
    chunk(sealed());
    assertForgerIsFoundAndRepairCompletes();
  }

  private void assertForgerIsFoundAndRepairCompletes() throws Exception {
    Fragment forged = forge(pieces[1], 99);
    assertThat(forged.tag()).as("the forgery keeps the real piece's tag").isEqualTo(pieces[1].tag());
    assertThat(forged.payload()).isNotEqualTo(pieces[1].payload());
    FragmentStore a = store("a", pieces[0]);
    FragmentStore h = store("h", forged);
    FragmentStore b = store("b", pieces[4]);
    FragmentStore self = store("self", pieces[2], pieces[3]);
    String addrA = serve(a);
    String addrH = serve(h);
    String addrB = serve(b);
    RepairJob job = job(List.of(new RepairJob.Piece(0, "a", addrA), new RepairJob.Piece(1, "h", addrH),
        new RepairJob.Piece(2, "self", NOWHERE), new RepairJob.Piece(3, "self", NOWHERE), new RepairJob.Piece(4, "b", addrB)),
        List.of(new RepairJob.Piece(5, "self", NOWHERE)));

    RepairOutcome outcome = worker(self).execute(job);

    assertThat(outcome.error()).isNull();
    assertThat(self.get(FragmentKey.of(pieces[5]))).as("the rebuilt piece is the real one").isEqualTo(pieces[5].toBytes());
    assertThat(trackerCalls).singleElement().asString()
        .startsWith("POST /api/v1/peers/h/bad ")
        .contains(HexFormat.of().formatHex(FragmentKey.of(pieces[1]).toBytes()))
        .contains("disagrees");
  }

  @Test
  void aSealedChunksExtraPieceThatIsForgedIsFoundByComparison_andItsHolderReported() throws Exception {
    chunk(sealed());
    FragmentStore a = store("a", pieces[0], pieces[1]);
    FragmentStore h = store("h", forge(pieces[4], 7));
    FragmentStore self = store("self", pieces[2], pieces[3]);
    String addrA = serve(a);
    String addrH = serve(h);
    RepairJob job = job(List.of(new RepairJob.Piece(0, "a", addrA), new RepairJob.Piece(1, "a", addrA),
        new RepairJob.Piece(2, "self", NOWHERE), new RepairJob.Piece(3, "self", NOWHERE), new RepairJob.Piece(4, "h", addrH)),
        List.of(new RepairJob.Piece(5, "self", NOWHERE)));

    RepairOutcome outcome = worker(self).execute(job);

    assertThat(outcome.error()).isNull();
    assertThat(self.get(FragmentKey.of(pieces[5]))).isEqualTo(pieces[5].toBytes());
    assertThat(trackerCalls).singleElement().asString().startsWith("POST /api/v1/peers/h/bad ");
  }

  @Test
  void withNoExtraPieceToTellWhichSourceLies_theJobFailsAndNobodyIsAccused() throws Exception {
    chunk(plain());
    FragmentStore a = store("a", pieces[0]);
    FragmentStore h = store("h", forge(pieces[1], 5));
    FragmentStore self = store("self", pieces[2], pieces[3]);
    String addrA = serve(a);
    String addrH = serve(h);
    RepairJob job = job(List.of(new RepairJob.Piece(0, "a", addrA), new RepairJob.Piece(1, "h", addrH),
        new RepairJob.Piece(2, "self", NOWHERE), new RepairJob.Piece(3, "self", NOWHERE)),
        List.of(new RepairJob.Piece(5, "self", NOWHERE)));

    RepairOutcome outcome = worker(self).execute(job);

    assertThat(outcome.placed()).isEmpty();
    assertThat(outcome.error()).contains("cannot tell which source is bad");
    assertThat(self.contains(FragmentKey.of(pieces[5]))).isFalse();
    assertThat(trackerCalls).as("no source reported on a guess").isEmpty();
  }

  /**
   * The piece with its payload changed by a difference whose CRC32C contribution is zero, so the
   * payload's CRC, the header and the tag are unchanged: a combination of random differences found
   * by Gaussian elimination over their (linear) CRC contributions.
   */
  static Fragment forge(Fragment real, long seed) {
    byte[] payload = real.payload();
    int len = payload.length;
    Random random = new Random(seed);
    int count = 40; // more than 32 vectors in GF(2)^32: some combination cancels
    byte[][] deltas = new byte[count][len];
    int zero = crc(new byte[len]);
    int[] rows = new int[count];
    long[] combos = new long[count];
    for (int j = 0; j < count; j++) {
      random.nextBytes(deltas[j]);
      rows[j] = crc(deltas[j]) ^ zero; // the linear part of the CRC of delta j
      combos[j] = 1L << j;
    }
    for (int bit = 31, pivotRow = 0; bit >= 0 && pivotRow < count; bit--) {
      int p = -1;
      for (int r = pivotRow; r < count; r++) {
        if ((rows[r] >>> bit & 1) == 1) {
          p = r;
          break;
        }
      }
      if (p < 0) {
        continue;
      }
      int tr = rows[p];
      rows[p] = rows[pivotRow];
      rows[pivotRow] = tr;
      long tc = combos[p];
      combos[p] = combos[pivotRow];
      combos[pivotRow] = tc;
      for (int r = 0; r < count; r++) {
        if (r != pivotRow && (rows[r] >>> bit & 1) == 1) {
          rows[r] ^= rows[pivotRow];
          combos[r] ^= combos[pivotRow];
        }
      }
      pivotRow++;
    }
    for (int r = 0; r < count; r++) {
      if (rows[r] == 0 && combos[r] != 0) {
        byte[] out = payload.clone();
        for (int j = 0; j < count; j++) {
          if ((combos[r] >>> j & 1) == 1) {
            for (int i = 0; i < len; i++) {
              out[i] ^= deltas[j][i];
            }
          }
        }
        return Fragment.create(real.chunkId(), real.codec(), real.compression(), real.encryption(), real.index(),
            real.dataFragments(), real.parityFragments(), real.chunkLength(), real.encodedLength(), out);
      }
    }
    throw new AssertionError("no cancelling combination (cannot happen with more than 32 vectors)");
  }

  private static int crc(byte[] b) {
    CRC32C c = new CRC32C();
    c.update(b);
    return (int) c.getValue();
  }

  private FragmentStore store(String name, Fragment... held) throws IOException {
    FragmentStore s = FragmentStore.open(dir.resolve(name));
    open.add(s);
    List<byte[]> bytes = new ArrayList<>();
    for (Fragment f : held) {
      bytes.add(f.toBytes());
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
}
