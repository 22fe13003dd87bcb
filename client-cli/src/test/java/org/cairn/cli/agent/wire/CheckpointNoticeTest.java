package org.cairn.cli.agent.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CheckpointNoticeTest {
  private static byte[] frame(CheckpointNotice n) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    n.write(new DataOutputStream(b));
    return b.toByteArray();
  }

  private static CheckpointNotice read(byte[] b) throws IOException {
    return CheckpointNotice.read(new DataInputStream(new ByteArrayInputStream(b)));
  }

  /** A frame of {@code type} with {@code len} in its header and {@code body} after it. */
  private static byte[] raw(int type, int len, byte[] body) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    DataOutputStream d = new DataOutputStream(b);
    d.writeByte(type);
    d.writeInt(len);
    d.write(body);
    return b.toByteArray();
  }

  private static byte[] body(int version, long seq, String reason, int trailing) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    DataOutputStream d = new DataOutputStream(b);
    d.writeInt(version);
    d.writeLong(seq);
    d.writeLong(1_700_000_000_000L);
    d.writeUTF(reason);
    d.write(new byte[trailing]);
    return b.toByteArray();
  }

  @Test
  void aNoticeRoundTrips() throws IOException {
    CheckpointNotice n = new CheckpointNotice(7, 1_700_000_000_123L, "the owner is using the computer (h\u00e9)");
    assertThat(read(frame(n))).isEqualTo(n);
  }

  @Test
  void aReasonIsOneLineAndShortened() {
    CheckpointNotice n = new CheckpointNotice(1, 0, "two\nlines" + "x".repeat(500));
    assertThat(n.reason()).doesNotContain("\n").hasSize(CheckpointNotice.MAX_REASON).startsWith("two lines");
    assertThat(new CheckpointNotice(1, 0, null).reason()).isEmpty();
    assertThatThrownBy(() -> new CheckpointNotice(0, 0, "r")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anOversizedOrNegativeFrameIsRefusedBeforeItsBodyIsRead() throws IOException {
    assertThatThrownBy(() -> read(raw(CheckpointNotice.NOTICE, CheckpointNotice.MAX_FRAME + 1, new byte[0])))
        .isInstanceOf(IOException.class).hasMessageContaining("bad frame");
    assertThatThrownBy(() -> read(raw(CheckpointNotice.NOTICE, Integer.MAX_VALUE, new byte[0])))
        .isInstanceOf(IOException.class).hasMessageContaining("bad frame");
    assertThatThrownBy(() -> read(raw(CheckpointNotice.NOTICE, -1, new byte[0]))).isInstanceOf(IOException.class)
        .hasMessageContaining("bad frame");
  }

  @Test
  void anotherFrameTypeAVersionOrAMalformedBodyIsRefused() throws IOException {
    byte[] good = body(CheckpointNotice.VERSION, 1, "r", 0);
    assertThatThrownBy(() -> read(raw(AgentWire.OUT, good.length, good))).hasMessageContaining("bad frame from the agent (type 1,");
    byte[] v2 = body(2, 1, "r", 0);
    assertThatThrownBy(() -> read(raw(CheckpointNotice.NOTICE, v2.length, v2))).hasMessageContaining("notice version 2");
    byte[] trailing = body(CheckpointNotice.VERSION, 1, "r", 3);
    assertThatThrownBy(() -> read(raw(CheckpointNotice.NOTICE, trailing.length, trailing))).hasMessageContaining("3 bytes after");
    byte[] seq0 = body(CheckpointNotice.VERSION, 0, "r", 0);
    assertThatThrownBy(() -> read(raw(CheckpointNotice.NOTICE, seq0.length, seq0))).hasMessageContaining("malformed");
    // a length that claims less than the body holds: the record is cut short inside the frame
    assertThatThrownBy(() -> read(raw(CheckpointNotice.NOTICE, 10, good))).hasMessageContaining("malformed");
    // a frame cut short by a connection that ends
    assertThatThrownBy(() -> read(raw(CheckpointNotice.NOTICE, good.length, java.util.Arrays.copyOf(good, 5))))
        .isInstanceOf(java.io.EOFException.class);
  }

  @Test
  void aWatchOpensWithItsSubscriptionFrameOnly() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    CheckpointNotice.subscribed(new DataOutputStream(b));
    CheckpointNotice.awaitSubscribed(new DataInputStream(new ByteArrayInputStream(b.toByteArray())));
    assertThatThrownBy(() -> CheckpointNotice.awaitSubscribed(new DataInputStream(new ByteArrayInputStream(raw(AgentWire.ERR, 0,
        new byte[0]))))).hasMessageContaining("did not take the watch");
    assertThat(CheckpointNotice.isWatch(CheckpointNotice.watchRequest("sim.n0"))).isTrue();
    assertThat(CheckpointNotice.isWatch(CheckpointNotice.notifyRequest("r"))).isFalse();
  }

  @Test
  void aDebounceLetsOneEventThroughPerGap() {
    Debounce d = new Debounce(Duration.ofSeconds(60));
    long s = 1_000_000_000L;
    assertThat(d.tryPass(5 * s)).isTrue();
    assertThat(d.tryPass(6 * s)).isFalse();
    assertThat(d.remaining(35 * s)).isEqualTo(Duration.ofSeconds(30));
    assertThat(d.tryPass(64 * s)).isFalse();
    assertThat(d.tryPass(65 * s)).isTrue();
    assertThat(d.tryPass(66 * s)).as("a new gap from the last one through").isFalse();
  }
}
