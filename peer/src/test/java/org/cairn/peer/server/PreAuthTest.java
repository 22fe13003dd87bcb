package org.cairn.peer.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameDecoder;
import org.cairn.core.protocol.FrameEncoder;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.security.GridToken;
import org.cairn.peer.store.FragmentStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A connection before it has authenticated, through the server's own pipeline (decoder limited, then
 * lifted by the handler): small frames only, within a deadline; bad bytes close it without a crash.
 */
class PreAuthTest {
  private final GridToken token = GridToken.of(GridToken.generate());
  @TempDir
  Path dir;
  private FragmentStore store;

  @BeforeEach
  void open() throws IOException {
    store = FragmentStore.open(dir);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private EmbeddedChannel channel() {
    return new EmbeddedChannel(FrameDecoder.limitedTo(FrameDecoder.PRE_AUTH_PAYLOAD), new FrameEncoder(),
        new DataHandler(() -> token, store, Admission.OPEN, TicketGate.notRequired(), Duration.ofSeconds(10)));
  }

  /** The CHALLENGE sent on connect, read off the wire. */
  private static byte[] challenge(EmbeddedChannel ch) {
    ByteBuf wire = ch.readOutbound();
    Frame c = Frame.decode(wire);
    wire.release();
    try {
      assertThat(c.type()).isEqualTo(FrameType.CHALLENGE);
      return ByteBufUtil.getBytes(c.payload());
    } finally {
      c.release();
    }
  }

  private static ByteBuf wire(FrameType type, int id, byte[] payload) {
    ByteBuf b = Unpooled.buffer();
    Frame.of(type, id, payload).encode(b);
    return b;
  }

  private static ByteBuf header(FrameType type, long length) {
    return Unpooled.buffer(Frame.HEADER).writeShort(Frame.MAGIC).writeByte(Frame.VERSION).writeByte(type.id()).writeInt(1)
        .writeInt((int) length);
  }

  @Test
  void aStrangerAnnouncingAMegabyteFrameBeforeAuthIsClosedWithoutItBeingBuffered() {
    EmbeddedChannel ch = channel();
    challenge(ch);
    ch.writeInbound(header(FrameType.PUT, 1 << 20).writeZero(1000)); // 1 MiB announced: the header is enough to refuse
    assertThat(ch.isOpen()).isFalse();
    ch.finishAndReleaseAll();
  }

  @Test
  void afterAuthAFrameOfAMegabyteIsServed() {
    EmbeddedChannel ch = channel();
    ch.writeInbound(wire(FrameType.AUTH, 1, token.hmac(challenge(ch))));
    ByteBuf ok = ch.readOutbound();
    assertThat(Frame.decode(ok).type()).isEqualTo(FrameType.AUTH_OK);
    ok.release();
    byte[] big = new byte[1 << 20];
    new Random(3).nextBytes(big);
    ch.writeInbound(wire(FrameType.PING, 2, big));
    Frame pong = readFrame(ch);
    assertThat(pong.type()).isEqualTo(FrameType.PONG);
    assertThat(pong.payload().readableBytes()).isEqualTo(big.length);
    pong.release();
    assertThat(ch.isOpen()).isTrue();
    ch.finishAndReleaseAll();
  }

  @Test
  void aConnectionThatDoesNotAuthenticateWithinTheDeadlineIsClosed() {
    EmbeddedChannel ch = channel();
    challenge(ch);
    ch.advanceTimeBy(9, TimeUnit.SECONDS);
    ch.runScheduledPendingTasks();
    assertThat(ch.isOpen()).as("open before the deadline").isTrue();
    ch.advanceTimeBy(2, TimeUnit.SECONDS);
    ch.runScheduledPendingTasks();
    assertThat(ch.isOpen()).as("closed after the deadline").isFalse();
    ch.finishAndReleaseAll();
  }

  @Test
  void anAuthenticatedConnectionOutlivesTheDeadline() {
    EmbeddedChannel ch = channel();
    ch.writeInbound(wire(FrameType.AUTH, 1, token.hmac(challenge(ch))));
    ch.advanceTimeBy(60, TimeUnit.SECONDS);
    ch.runScheduledPendingTasks();
    assertThat(ch.isOpen()).isTrue();
    ch.finishAndReleaseAll();
  }

  @Test
  void aLengthOfTwoToTheThirtyFirstClosesTheConnection() {
    EmbeddedChannel ch = channel();
    ch.writeInbound(wire(FrameType.AUTH, 1, token.hmac(challenge(ch))));
    ch.writeInbound(header(FrameType.PUT, 1L << 31));
    assertThat(ch.isOpen()).isFalse();
    ch.finishAndReleaseAll();
  }

  @Test
  void randomBytesCloseTheConnection() {
    EmbeddedChannel ch = channel();
    challenge(ch);
    byte[] noise = new byte[4096];
    new Random(42).nextBytes(noise);
    ch.writeInbound(Unpooled.wrappedBuffer(noise));
    assertThat(ch.isOpen()).isFalse();
    ch.finishAndReleaseAll();
  }

  @Test
  void aFrameOtherThanAuthFirstIsRefusedWithAnError() {
    EmbeddedChannel ch = channel();
    challenge(ch);
    ch.writeInbound(wire(FrameType.PING, 5, new byte[10]));
    Frame error = readFrame(ch);
    assertThat(error.type()).isEqualTo(FrameType.ERROR);
    error.release();
    assertThat(ch.isOpen()).isFalse();
    ch.finishAndReleaseAll();
  }

  /** One frame off the wire, whether the encoder wrote it whole or as header and payload. */
  private static Frame readFrame(EmbeddedChannel ch) {
    ByteBuf all = Unpooled.buffer();
    for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
      all.writeBytes(b);
      b.release();
    }
    Frame f = Frame.decode(all);
    all.release();
    return f;
  }
}
