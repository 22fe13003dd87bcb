package org.cairn.peer.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.file.Path;
import org.cairn.core.config.HostPort;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.security.GridToken;
import org.cairn.peer.store.FragmentStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server over a real loopback socket: the donor's bandwidth cap holds. */
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
      DataInputStream in = new DataInputStream(s.getInputStream());
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      byte[] challenge = readFrame(in, FrameType.CHALLENGE);
      writeFrame(out, FrameType.AUTH, token.hmac(challenge));
      readFrame(in, FrameType.AUTH_OK);
      long start = System.nanoTime();
      writeFrame(out, FrameType.PROBE, java.nio.ByteBuffer.allocate(4).putInt(size).array());
      byte[] probe = readFrame(in, FrameType.PROBE_RESULT);
      double seconds = (System.nanoTime() - start) / 1e9;
      assertThat(probe).hasSize(size);
      // 1 MiB at 512 KiB/s cannot arrive in much under 2 s (the shaper may let the first burst through)
      assertThat(seconds).as("seconds to pull 1 MiB under a 512 KiB/s cap").isGreaterThan(1.0);
    }
  }

  private static void writeFrame(DataOutputStream out, FrameType type, byte[] payload) throws java.io.IOException {
    out.writeShort(Frame.MAGIC);
    out.writeByte(Frame.VERSION);
    out.writeByte(type.id());
    out.writeInt(1);
    out.writeInt(payload.length);
    out.write(payload);
    out.flush();
  }

  private static byte[] readFrame(DataInputStream in, FrameType expected) throws java.io.IOException {
    assertThat(in.readUnsignedShort()).isEqualTo(Frame.MAGIC);
    in.readUnsignedByte();
    assertThat(in.readUnsignedByte()).isEqualTo(expected.id());
    in.readInt();
    byte[] payload = new byte[in.readInt()];
    in.readFully(payload);
    return payload;
  }
}
