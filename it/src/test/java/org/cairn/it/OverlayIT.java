package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.security.GridToken;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The overlay with real processes: a tracker and five peers on loopback, heartbeat interval 1 s. */
class OverlayIT {
  private static final Duration HEARTBEAT = Duration.ofSeconds(1);
  /** The contract: a SIGKILLed peer is DOWN within 3 intervals plus one second. */
  private static final Duration DOWN_BOUND = HEARTBEAT.multipliedBy(3).plusSeconds(1);

  @TempDir
  Path root;

  private MiniGrid grid;
  private final List<MiniGrid.Node> peers = new ArrayList<>();

  @BeforeEach
  void startGrid() throws Exception {
    grid = new MiniGrid(root, HEARTBEAT);
    grid.startTracker();
    for (int i = 0; i < 5; i++) {
      peers.add(grid.startPeer("peer" + i));
    }
    MiniGrid.await("5 peers RUNNING", Duration.ofSeconds(30), () -> {
      JsonNode list = grid.peers();
      int running = 0;
      for (JsonNode p : list) {
        running += p.get("state").asText().equals("RUNNING") ? 1 : 0;
      }
      return running == 5;
    });
  }

  @AfterEach
  void stopGrid() {
    grid.close();
  }

  @Test
  void peers_registerWithTheirAddressAndSpace() throws Exception {
    JsonNode list = grid.peers();
    assertThat(list).hasSize(5);
    for (JsonNode p : list) {
      assertThat(p.get("id").asText()).startsWith("peer-");
      assertThat(p.get("address").asText()).matches("127\\.0\\.0\\.1:\\d+");
      assertThat(p.get("state").asText()).isEqualTo("RUNNING");
      assertThat(p.get("freeBytes").asLong()).isPositive().isLessThanOrEqualTo(2L << 30);
      assertThat(p.get("lastHeartbeat").asLong()).isPositive();
    }
    List<String> addresses = new ArrayList<>();
    for (MiniGrid.Node n : peers) {
      addresses.add(n.address());
    }
    assertThat(list.findValuesAsText("address")).containsExactlyInAnyOrderElementsOf(addresses);
  }

  @Test
  void heartbeats_advanceLastHeartbeat() throws Exception {
    String id = peers.get(0).peerId();
    long first = lastHeartbeat(id);
    MiniGrid.await("a newer heartbeat from " + id, Duration.ofSeconds(5), () -> lastHeartbeat(id) > first);
  }

  @Test
  void killedPeer_isDownWithinThreeIntervalsPlusOneSecond() throws Exception {
    MiniGrid.Node victim = peers.get(2);
    victim.kill();
    long killed = System.nanoTime();
    MiniGrid.await(victim.peerId() + " DOWN", DOWN_BOUND, () -> "DOWN".equals(grid.stateOf(victim.peerId())));
    long tookMillis = (System.nanoTime() - killed) / 1_000_000;
    assertThat(tookMillis).isLessThanOrEqualTo(DOWN_BOUND.toMillis());
    // the others are unaffected
    for (MiniGrid.Node n : peers) {
      if (n != victim) {
        assertThat(grid.stateOf(n.peerId())).isEqualTo("RUNNING");
      }
    }
  }

  @Test
  void gracefullyStoppedPeer_leavesAtOnceAndRejoinsWithItsId() throws Exception {
    MiniGrid.Node leaving = peers.get(1);
    assertThat(leaving.stop()).as("exit status after SIGTERM").isIn(0, 143);
    assertThat(grid.stateOf(leaving.peerId())).isEqualTo("DOWN");
    assertThat(leaving.stderr()).contains("left the grid");

    MiniGrid.Node back = grid.startPeer("peer1");
    assertThat(back.peerId()).isEqualTo(leaving.peerId());
    MiniGrid.await("rejoined peer RUNNING", Duration.ofSeconds(10), () -> "RUNNING".equals(grid.stateOf(back.peerId())));
    assertThat(grid.peers()).hasSize(5);
  }

  @Test
  void trackerRestart_keepsPeersAndDoesNotMarkThemDown() throws Exception {
    assertThat(grid.tracker().stop()).as("exit status after SIGTERM").isIn(0, 143);
    assertThat(grid.tracker().stderr()).contains("tracker stopped");
    grid.startTracker();
    // straight after the restart, every peer is listed and none is DOWN
    JsonNode list = grid.peers();
    assertThat(list).hasSize(5);
    for (JsonNode p : list) {
      assertThat(p.get("state").asText()).as(p.get("id").asText()).isEqualTo("RUNNING");
    }
    // and they keep heartbeating to the new process
    String id = peers.get(3).peerId();
    long before = lastHeartbeat(id);
    MiniGrid.await("heartbeat after restart", Duration.ofSeconds(5), () -> lastHeartbeat(id) > before);
    Thread.sleep(DOWN_BOUND.toMillis()); // a full timeout: nobody may have been marked DOWN meanwhile
    for (MiniGrid.Node n : peers) {
      assertThat(grid.stateOf(n.peerId())).isEqualTo("RUNNING");
    }
  }

  @Test
  void wrongOrMissingToken_isRejected() throws Exception {
    assertThat(grid.get("/api/v1/peers", null).status()).isEqualTo(401);
    MiniGrid.Result wrong = grid.get("/api/v1/peers", "Bearer " + GridToken.generate());
    assertThat(wrong.status()).isEqualTo(401);
    assertThat(wrong.json().get("error").asText()).contains("bearer token");
    assertThat(grid.get("/metrics", null).status()).isEqualTo(401);
    assertThat(grid.get("/metrics").text()).contains("cairn_heartbeats_total").contains("cairn_peers{state=\"RUNNING\"} 5");
    // tokens never reach the logs
    assertThat(grid.tracker().stderr()).doesNotContain(grid.token());
    // a grid with one shared token (--token-file) is told how to move to roles
    assertThat(java.nio.file.Files.readString(root.resolve("tracker.out"))).contains("--role donor|client")
        .contains("Upgrading a grid from one shared token").doesNotContain(grid.token());
  }

  @Test
  void dataPlane_requiresTheTokensHmacBeforeAnyRequest() throws Exception {
    String[] hostPort = peers.get(0).address().split(":");
    GridToken token = GridToken.of(grid.dataKey());
    // right key: AUTH_OK, then PING -> PONG with the same payload
    try (Socket s = dataSocket(hostPort[0], Integer.parseInt(hostPort[1]))) {
      s.setSoTimeout(5000);
      DataInputStream in = new DataInputStream(s.getInputStream());
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      RawFrame challenge = RawFrame.read(in);
      assertThat(challenge.type).isEqualTo(FrameType.CHALLENGE.id());
      assertThat(challenge.payload).hasSize(32);
      RawFrame.write(out, FrameType.AUTH, 1, token.hmac(challenge.payload));
      assertThat(RawFrame.read(in).type).isEqualTo(FrameType.AUTH_OK.id());
      RawFrame.write(out, FrameType.PING, 2, "hello".getBytes(StandardCharsets.UTF_8));
      RawFrame pong = RawFrame.read(in);
      assertThat(pong.type).isEqualTo(FrameType.PONG.id());
      assertThat(pong.requestId).isEqualTo(2);
      assertThat(new String(pong.payload, StandardCharsets.UTF_8)).isEqualTo("hello");
    }
    // a wrong key, or the operator's token (the data plane has its own key): ERROR, then the connection is closed
    for (GridToken wrong : new GridToken[] {GridToken.of(GridToken.generate()), GridToken.of(grid.token())}) {
      try (Socket s = dataSocket(hostPort[0], Integer.parseInt(hostPort[1]))) {
        s.setSoTimeout(5000);
        DataInputStream in = new DataInputStream(s.getInputStream());
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        RawFrame challenge = RawFrame.read(in);
        RawFrame.write(out, FrameType.AUTH, 1, wrong.hmac(challenge.payload));
        RawFrame error = RawFrame.read(in);
        assertThat(error.type).isEqualTo(FrameType.ERROR.id());
        assertThat(new String(error.payload, StandardCharsets.UTF_8)).contains("authentication failed");
        assertThat(in.read()).isEqualTo(-1);
      }
    }
    // a request before authenticating, and an oversized frame: closed, and the peer keeps running
    try (Socket s = dataSocket(hostPort[0], Integer.parseInt(hostPort[1]))) {
      s.setSoTimeout(5000);
      DataInputStream in = new DataInputStream(s.getInputStream());
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      RawFrame.read(in);
      out.writeShort(Frame.MAGIC);
      out.writeByte(Frame.VERSION);
      out.writeByte(FrameType.PING.id());
      out.writeInt(7);
      out.writeInt(Integer.MAX_VALUE);
      out.flush();
      assertThat(drainToEof(in)).isTrue();
    }
    assertThat(peers.get(0).process().isAlive()).isTrue();
    assertThat(peers.get(0).stderr()).contains("closing data connection").doesNotContain(grid.token());
  }

  @Test
  void acknowledgedFragments_surviveSigkillAndAPausedPeerRefusesPuts() throws Exception {
    MiniGrid.Node peer = peers.get(4);
    List<byte[]> fragments = fragments(11, 200_000);
    org.cairn.core.hash.ChunkId chunk = org.cairn.core.fragment.Fragment.parse(fragments.get(0)).chunkId();
    // the tracker lists a peer RUNNING as it answers the registration; the peer serves once it has read the answer
    MiniGrid.await("peer4 to serve the data plane", Duration.ofSeconds(10), () -> {
      try (DataConnection probe = new DataConnection(peer.address(), grid.dataKey())) {
        return true;
      } catch (IOException e) {
        return false;
      }
    });
    try (DataConnection c = new DataConnection(peer.address(), grid.dataKey())) {
      RawFrame granted = c.call(FrameType.TICKET, grid.ticket("WRITE", peer.peerId(), List.of(chunk), null));
      assertThat(granted.type).as(new String(granted.payload, StandardCharsets.UTF_8)).isEqualTo(FrameType.TICKET_OK.id());
      RawFrame ok = c.call(FrameType.PUT, batch(fragments));
      assertThat(ok.type).as(new String(ok.payload, StandardCharsets.UTF_8)).isEqualTo(FrameType.PUT_OK.id());
    }
    MiniGrid.await("usedBytes reported", Duration.ofSeconds(5), () -> {
      for (JsonNode p : grid.peers()) {
        if (p.get("id").asText().equals(peer.peerId())) {
          return p.get("usedBytes").asLong() > 0 && p.get("fragments").asLong() == fragments.size();
        }
      }
      return false;
    });
    peer.kill(); // no chance to flush anything after the PUT_OK
    MiniGrid.Node restarted = grid.startPeer("peer4", "--paused");
    assertThat(restarted.peerId()).isEqualTo(peer.peerId());
    try (DataConnection c = new DataConnection(restarted.address(), grid.dataKey())) {
      c.call(FrameType.TICKET, grid.ticket("READ", peer.peerId(), List.of(chunk), null));
      org.cairn.core.hash.ChunkId other = org.cairn.core.fragment.Fragment.parse(fragments(12, 1000).get(0)).chunkId();
      c.call(FrameType.TICKET, grid.ticket("WRITE", peer.peerId(), List.of(other), null));
      for (byte[] f : fragments) {
        RawFrame got = c.call(FrameType.GET, key(f));
        assertThat(got.type).isEqualTo(FrameType.FRAGMENT.id());
        assertThat(got.payload).isEqualTo(f);
      }
      RawFrame refused = c.call(FrameType.PUT, batch(fragments(12, 1000)));
      assertThat(refused.type).isEqualTo(FrameType.REFUSED.id());
      assertThat(refused.payload[0]).isEqualTo((byte) org.cairn.core.protocol.Refusal.PAUSED.code());
    }
    MiniGrid.await("paused flag at the tracker", Duration.ofSeconds(5), () -> {
      for (JsonNode p : grid.peers()) {
        if (p.get("id").asText().equals(peer.peerId())) {
          return p.get("paused").asBoolean() && p.get("state").asText().equals("RUNNING");
        }
      }
      return false;
    });
  }

  private static List<byte[]> fragments(long seed, int size) {
    byte[] chunk = new byte[size];
    new java.util.Random(seed).nextBytes(chunk);
    org.cairn.core.fragment.Fragment[] fs = new org.cairn.core.pipeline.ChunkCodec(org.cairn.core.compress.Compressor.parse("auto"),
        org.cairn.core.erasure.Redundancy.parse("code:4+2")).encode(org.cairn.core.hash.ChunkId.of(chunk), chunk, size);
    List<byte[]> out = new ArrayList<>();
    for (org.cairn.core.fragment.Fragment f : fs) {
      out.add(f.toBytes());
    }
    return out;
  }

  private static byte[] batch(List<byte[]> fragments) {
    io.netty.buffer.ByteBuf b = io.netty.buffer.Unpooled.buffer();
    org.cairn.core.protocol.FragmentBatch.encode(fragments, b);
    byte[] out = io.netty.buffer.ByteBufUtil.getBytes(b);
    b.release();
    return out;
  }

  private static byte[] key(byte[] fragment) throws Exception {
    org.cairn.core.fragment.Fragment f = org.cairn.core.fragment.Fragment.parse(fragment);
    return org.cairn.core.protocol.FragmentKey.of(f).toBytes();
  }

  /** An authenticated data connection speaking raw frames. */
  private final class DataConnection implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private int nextId = 1;

    DataConnection(String address, String token) throws IOException {
      String[] hp = address.split(":");
      socket = dataSocket(hp[0], Integer.parseInt(hp[1]));
      socket.setSoTimeout(10_000);
      in = new DataInputStream(new java.io.BufferedInputStream(socket.getInputStream()));
      out = new DataOutputStream(new java.io.BufferedOutputStream(socket.getOutputStream()));
      RawFrame challenge = RawFrame.read(in);
      RawFrame.write(out, FrameType.AUTH, 0, GridToken.of(token).hmac(challenge.payload));
      RawFrame ok = RawFrame.read(in);
      if (ok.type != FrameType.AUTH_OK.id()) {
        throw new IOException("not authenticated: " + new String(ok.payload, StandardCharsets.UTF_8));
      }
    }

    RawFrame call(FrameType type, byte[] payload) throws IOException {
      int id = nextId++;
      RawFrame.write(out, type, id, payload);
      RawFrame answer = RawFrame.read(in);
      if (answer.requestId != id) {
        throw new IOException("answer to request " + answer.requestId + ", expected " + id);
      }
      return answer;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  /**
   * A connection to a peer's data plane: over TLS trusting the CA the grid's token pins, as every peer of a grid with
   * TLS (the default) serves; plain TCP on a grid without.
   */
  private Socket dataSocket(String host, int port) throws IOException {
    java.util.Optional<String> pin = GridToken.readFile(grid.tokenFile()).caPin();
    if (pin.isEmpty()) {
      return new Socket(host, port);
    }
    try {
      javax.net.ssl.SSLContext c = javax.net.ssl.SSLContext.getInstance("TLS");
      // a peer's certificate from the pinned CA, naming the address dialled
      c.init(null, new javax.net.ssl.TrustManager[] {new org.cairn.core.security.PinnedTrust(pin.get(), true)}, null);
      return c.getSocketFactory().createSocket(host, port);
    } catch (java.security.GeneralSecurityException e) {
      throw new IOException(e);
    }
  }

  private static boolean drainToEof(DataInputStream in) throws IOException {
    try {
      while (in.read() != -1) {
        // discard
      }
      return true;
    } catch (java.net.SocketException | javax.net.ssl.SSLException e) {
      return true; // reset by the peer (or TLS ended without close_notify) also means closed
    }
  }

  private long lastHeartbeat(String id) throws Exception {
    for (JsonNode p : grid.peers()) {
      if (p.get("id").asText().equals(id)) {
        return p.get("lastHeartbeat").asLong();
      }
    }
    throw new AssertionError("peer " + id + " not listed");
  }

  /** A frame read or written by hand, independent of the Netty codecs under test. */
  private static final class RawFrame {
    int type;
    int requestId;
    byte[] payload;

    static RawFrame read(DataInputStream in) throws IOException {
      RawFrame f = new RawFrame();
      int magic = in.readUnsignedShort();
      if (magic != Frame.MAGIC) {
        throw new IOException("bad magic " + Integer.toHexString(magic));
      }
      in.readUnsignedByte();
      f.type = in.readUnsignedByte();
      f.requestId = in.readInt();
      int len = in.readInt();
      f.payload = new byte[len];
      in.readFully(f.payload);
      return f;
    }

    static void write(DataOutputStream out, FrameType type, int requestId, byte[] payload) throws IOException {
      out.writeShort(Frame.MAGIC);
      out.writeByte(Frame.VERSION);
      out.writeByte(type.id());
      out.writeInt(requestId);
      out.writeInt(payload.length);
      out.write(payload);
      out.flush();
    }
  }
}
