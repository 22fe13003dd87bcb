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
