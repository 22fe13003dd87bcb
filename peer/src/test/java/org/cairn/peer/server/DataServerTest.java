package org.cairn.peer.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.cairn.core.config.HostPort;
import org.cairn.core.protocol.FragmentBatch;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.protocol.Refusal;
import org.cairn.core.security.GridToken;
import org.cairn.peer.store.FragmentStore;
import org.cairn.peer.store.FragmentStoreTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server over real loopback sockets: the donor's bandwidth cap holds, and a request blocked in the
 * store (handlers run on the event loops) holds up no other connection.
 */
class DataServerTest {
  @TempDir
  Path dir;

  @Test
  void bandwidthCap_limitsWhatAClientCanPull() throws Exception {
    GridToken token = GridToken.of(GridToken.generate());
    long cap = 512 * 1024;
    int size = 1024 * 1024;
    try (FragmentStore store = FragmentStore.open(dir);
        DataServer server = new DataServer(HostPort.parse("127.0.0.1:0"), token, store, Admission.OPEN, cap);
        Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(30_000);
      DataInputStream in = authenticated(s, token);
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      long start = System.nanoTime();
      writeFrame(out, FrameType.PROBE, java.nio.ByteBuffer.allocate(4).putInt(size).array());
      byte[] probe = readFrame(in, FrameType.PROBE_RESULT);
      double seconds = (System.nanoTime() - start) / 1e9;
      assertThat(probe).hasSize(size);
      // 1 MiB at 512 KiB/s cannot arrive in much under 2 s (the shaper may let the first burst through)
      assertThat(seconds).as("seconds to pull 1 MiB under a 512 KiB/s cap").isGreaterThan(1.0);
    }
  }

  @Test
  void aDownloadCapAloneLeavesWhatAClientPullsUncapped() throws Exception {
    GridToken token = GridToken.of(GridToken.generate());
    int size = 1024 * 1024;
    try (FragmentStore store = FragmentStore.open(dir);
        DataServer server = new DataServer(HostPort.parse("127.0.0.1:0"), () -> token, null, store, Admission.OPEN, 0, 64 * 1024,
            TicketGate.notRequired(), org.cairn.peer.server.ConnectionLimits.DEFAULT, org.cairn.core.net.DataTls.wrapBytes());
        Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(30_000);
      DataInputStream in = authenticated(s, token);
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      long start = System.nanoTime();
      writeFrame(out, FrameType.PROBE, java.nio.ByteBuffer.allocate(4).putInt(size).array());
      assertThat(readFrame(in, FrameType.PROBE_RESULT)).hasSize(size);
      // capped at 64 KiB/s this would take some 16 s; the cap applies to what the peer receives only
      assertThat((System.nanoTime() - start) / 1e9).as("seconds to pull 1 MiB").isLessThan(8.0);
    }
  }

  @Test
  void aPutBlockedInTheStore_holdsUpNoOtherConnection() throws Exception {
    GridToken token = GridToken.of(GridToken.generate());
    CountDownLatch admitted = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Admission blocking = new Admission() { // the first PUT waits here, on its connection's event loop
      @Override
      public Refusal admit(long bytes) {
        admitted.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return null;
      }

      @Override
      public void writerStarted() {}

      @Override
      public void writerFinished() {}
    };
    List<byte[]> fragments = FragmentStoreTest.fragmentsOf(2, 1000); // a chunk's 3+2
    ByteBuf batch = Unpooled.buffer();
    FragmentBatch.encode(fragments, batch);
    byte[] put = ByteBufUtil.getBytes(batch);
    batch.release();
    try (FragmentStore store = FragmentStore.open(dir);
        DataServer server = new DataServer(HostPort.parse("127.0.0.1:0"), token, store, blocking, 0);
        Socket writer = new Socket("127.0.0.1", server.port());
        Socket other = new Socket("127.0.0.1", server.port())) {
      writer.setSoTimeout(30_000);
      other.setSoTimeout(30_000);
      DataInputStream wIn = authenticated(writer, token);
      DataOutputStream wOut = new DataOutputStream(writer.getOutputStream());
      DataInputStream oIn = authenticated(other, token);
      DataOutputStream oOut = new DataOutputStream(other.getOutputStream());
      writeFrame(wOut, FrameType.PUT, put);
      assertThat(admitted.await(30, TimeUnit.SECONDS)).as("the PUT reached the store").isTrue();
      writeFrame(oOut, FrameType.PING, new byte[] {7});
      assertThat(readFrame(oIn, FrameType.PONG)).as("answered while the PUT is blocked").containsExactly(7);
      release.countDown();
      assertThat(readFrame(wIn, FrameType.PUT_OK)).hasSize(4);
      assertThat(store.fragmentCount()).isEqualTo(fragments.size());
    } finally {
      release.countDown();
    }
  }

  private static DataInputStream authenticated(Socket s, GridToken token) throws IOException {
    DataInputStream in = new DataInputStream(s.getInputStream());
    DataOutputStream out = new DataOutputStream(s.getOutputStream());
    byte[] challenge = readFrame(in, FrameType.CHALLENGE);
    writeFrame(out, FrameType.AUTH, token.hmac(challenge));
    readFrame(in, FrameType.AUTH_OK);
    return in;
  }

  private static void writeFrame(DataOutputStream out, FrameType type, byte[] payload) throws IOException {
    out.writeShort(Frame.MAGIC);
    out.writeByte(Frame.VERSION);
    out.writeByte(type.id());
    out.writeInt(1);
    out.writeInt(payload.length);
    out.write(payload);
    out.flush();
  }

  private static byte[] readFrame(DataInputStream in, FrameType expected) throws IOException {
    assertThat(in.readUnsignedShort()).isEqualTo(Frame.MAGIC);
    in.readUnsignedByte();
    assertThat(in.readUnsignedByte()).isEqualTo(expected.id());
    in.readInt();
    byte[] payload = new byte[in.readInt()];
    in.readFully(payload);
    return payload;
  }
}
