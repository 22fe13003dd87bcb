package org.cairn.peer.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.cairn.core.config.HostPort;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.net.PeerClient;
import org.cairn.core.protocol.FragmentBatch;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.protocol.PieceReply;
import org.cairn.core.protocol.PutReply;
import org.cairn.core.security.GridToken;
import org.cairn.peer.store.FragmentStore;
import org.cairn.peer.store.FragmentStoreTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over real loopback sockets: a stranger at one address (127.0.0.2) floods the peer with connections
 * that announce huge frames before authenticating, and with connections that never authenticate,
 * while a client at another (127.0.0.1) stores and reads as usual.
 */
class FloodTest {
  @TempDir
  Path dir;

  private static final int PER_ADDRESS = 8;

  @Test
  void aStrangersFloodOfPreAuthFramesLeavesALegitimateClientStoringAndReading() throws Exception {
    GridToken token = GridToken.of(GridToken.generate());
    ConnectionLimits limits = new ConnectionLimits(32, PER_ADDRESS, Duration.ofSeconds(1), 1024);
    NioEventLoopGroup group = new NioEventLoopGroup(1);
    List<Socket> idle = new ArrayList<>();
    try (FragmentStore store = FragmentStore.open(dir);
        DataServer server = new DataServer(HostPort.parse("127.0.0.1:0"), () -> token, null, store, Admission.OPEN, 0,
            TicketGate.notRequired(), limits);
        PeerClient client = new PeerClient(group, token, Duration.ofSeconds(10))) {
      InetSocketAddress target = new InetSocketAddress("127.0.0.1", server.port());
      InetAddress stranger = InetAddress.getByName("127.0.0.2");
      // connections that never authenticate, past the per-address cap: the extra ones are closed at once
      for (int i = 0; i < PER_ADDRESS * 2; i++) {
        idle.add(connectFrom(stranger, target));
      }
      int closedAtOnce = 0;
      for (Socket s : idle) {
        if (closedSoon(s, 500)) {
          closedAtOnce++;
        }
      }
      assertThat(closedAtOnce).as("connections over the per-address cap closed at accept").isGreaterThanOrEqualTo(PER_ADDRESS);

      Random random = new Random(17);
      String address = "127.0.0.1:" + server.port();
      for (int round = 0; round < 20; round++) {
        try (Socket flood = connectFrom(stranger, target)) { // announces 16 MiB before AUTH, sends 64 KiB of it
          DataOutputStream out = new DataOutputStream(flood.getOutputStream());
          byte[] junk = new byte[64 * 1024];
          random.nextBytes(junk);
          try {
            out.writeShort(Frame.MAGIC);
            out.writeByte(Frame.VERSION);
            out.writeByte(FrameType.PUT.id());
            out.writeInt(1);
            out.writeInt(16 << 20);
            out.write(junk);
            out.flush();
          } catch (IOException e) {
            // closed by the peer already: what we want
          }
          assertThat(closedSoon(flood, 5_000)).as("a flooding connection is closed").isTrue();
        }
        List<byte[]> fragments = FragmentStoreTest.fragmentsOf(round, 10_000);
        ByteBuf batch = Unpooled.buffer();
        FragmentBatch.encode(fragments, batch);
        assertThat(client.put(address, batch).get(10, TimeUnit.SECONDS)).isInstanceOf(PutReply.Stored.class);
        FragmentKey key = FragmentKey.of(Fragment.parse(fragments.get(0)));
        PieceReply got = client.get(address, key).get(10, TimeUnit.SECONDS);
        assertThat(got).isInstanceOf(PieceReply.Found.class);
        assertThat(((PieceReply.Found) got).fragment().toBytes()).isEqualTo(fragments.get(0));
      }
      for (Socket s : idle) {
        assertThat(closedSoon(s, 5_000)).as("an idle stranger is closed after the authentication deadline").isTrue();
      }
      assertThat(server.openConnections()).as("only the client's connection is left").isEqualTo(1);
    } finally {
      for (Socket s : idle) {
        s.close();
      }
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }

  @Test
  void badBytesOnAConnectionCloseItAloneAndThePeerGoesOnServingOthers() throws Exception {
    GridToken token = GridToken.of(GridToken.generate());
    NioEventLoopGroup group = new NioEventLoopGroup(1);
    try (FragmentStore store = FragmentStore.open(dir);
        DataServer server = new DataServer(HostPort.parse("127.0.0.1:0"), token, store, Admission.OPEN, 0);
        PeerClient client = new PeerClient(group, token, Duration.ofSeconds(10))) {
      String address = "127.0.0.1:" + server.port();
      InetSocketAddress target = new InetSocketAddress("127.0.0.1", server.port());
      client.ping(address).get(10, TimeUnit.SECONDS);
      var first = client.connection(address).get(10, TimeUnit.SECONDS);
      byte[] noise = new byte[8192];
      new Random(23).nextBytes(noise);
      List<byte[]> attacks = List.of(
          header(FrameType.PUT, 0x80000000), // 2^31
          header(FrameType.PUT, -7),
          header(FrameType.PUT, Frame.MAX_PAYLOAD + 1),
          new byte[] {(byte) 0xCA, 0x1F, 9, 10, 0, 0, 0, 1, 0, 0, 0, 0}, // protocol version 9
          noise);
      for (boolean authenticate : new boolean[] {false, true}) {
        for (byte[] attack : attacks) {
          try (Socket s = new Socket()) {
            s.connect(target, 5_000);
            if (authenticate) {
              authenticate(s, token);
            }
            s.getOutputStream().write(attack);
            s.getOutputStream().flush();
            assertThat(closedSoon(s, 5_000)).as("closed after " + attack.length + " bad bytes").isTrue();
          }
          client.ping(address).get(10, TimeUnit.SECONDS);
        }
        try (Socket s = new Socket()) { // a truncated frame, then the stranger hangs up
          s.connect(target, 5_000);
          if (authenticate) {
            authenticate(s, token);
          }
          byte[] truncated = java.util.Arrays.copyOf(header(FrameType.PING, 1000), Frame.HEADER + 10);
          s.getOutputStream().write(truncated);
          s.getOutputStream().flush();
        }
        client.ping(address).get(10, TimeUnit.SECONDS);
      }
      assertThat(client.connection(address).get(10, TimeUnit.SECONDS)).as("the client's connection was never dropped")
          .isSameAs(first);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (server.openConnections() > 1 && System.nanoTime() < deadline) {
        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // closes are seen by the server a moment after the client
      }
      assertThat(server.openConnections()).as("every bad connection is closed and uncounted").isEqualTo(1);
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }

  private static byte[] header(FrameType type, int length) {
    return java.nio.ByteBuffer.allocate(Frame.HEADER).putShort((short) Frame.MAGIC).put((byte) Frame.VERSION).put((byte) type.id())
        .putInt(1).putInt(length).array();
  }

  /** Answers the CHALLENGE with the right proof and reads AUTH_OK. */
  private static void authenticate(Socket s, GridToken token) throws IOException {
    s.setSoTimeout(10_000);
    java.io.DataInputStream in = new java.io.DataInputStream(s.getInputStream());
    in.skipNBytes(4); // magic, version, type
    in.readInt(); // request id
    byte[] challenge = new byte[in.readInt()];
    in.readFully(challenge);
    byte[] proof = token.hmac(challenge);
    s.getOutputStream().write(java.nio.ByteBuffer.allocate(Frame.HEADER + proof.length).putShort((short) Frame.MAGIC)
        .put((byte) Frame.VERSION).put((byte) FrameType.AUTH.id()).putInt(1).putInt(proof.length).put(proof).array());
    in.skipNBytes(4);
    in.readInt();
    in.skipNBytes(in.readInt()); // AUTH_OK
  }

  private static Socket connectFrom(InetAddress local, InetSocketAddress target) throws IOException {
    Socket s = new Socket();
    s.bind(new InetSocketAddress(local, 0));
    s.connect(target, 5_000);
    return s;
  }

  /** Whether the peer closes {@code s} within {@code millis} (bytes it sent first, such as a CHALLENGE, are skipped). */
  private static boolean closedSoon(Socket s, int millis) throws IOException {
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    InputStream in = s.getInputStream();
    byte[] sink = new byte[4096];
    while (System.nanoTime() < until) {
      s.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime())));
      try {
        if (in.read(sink) < 0) {
          return true;
        }
      } catch (java.net.SocketTimeoutException e) {
        return false;
      } catch (IOException e) {
        return true; // reset
      }
    }
    return false;
  }
}
