package org.cairn.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The decoder's limit before authentication, and length fields no frame can have. */
class FrameLimitTest {
  private static ByteBuf header(int type, long length) {
    ByteBuf b = Unpooled.buffer(Frame.HEADER);
    b.writeShort(Frame.MAGIC).writeByte(Frame.VERSION).writeByte(type).writeInt(1).writeInt((int) length);
    return b;
  }

  @Test
  void aLimitedDecoderRefusesALargeFrameFromItsHeaderAlone() {
    EmbeddedChannel in = new EmbeddedChannel(FrameDecoder.limitedTo(FrameDecoder.PRE_AUTH_PAYLOAD));
    ByteBuf head = header(FrameType.PUT.id(), 1 << 20); // 1 MiB announced, none of it sent
    assertThatThrownBy(() -> in.writeInbound(head))
        .isInstanceOf(TooLongFrameException.class)
        .hasMessageContaining("before authentication");
    assertThat(head.refCnt()).as("the header's buffer is released").isZero();
    in.finishAndReleaseAll();
  }

  @Test
  void aLimitedDecoderTakesAFrameUpToItsLimit() {
    EmbeddedChannel in = new EmbeddedChannel(FrameDecoder.limitedTo(64));
    ByteBuf wire = header(FrameType.AUTH.id(), 64).writeZero(64);
    assertThat(in.writeInbound(wire)).isTrue();
    Frame f = in.readInbound();
    assertThat(f.payload().readableBytes()).isEqualTo(64);
    f.release();
    assertThat(in.finish()).isFalse();
  }

  @Test
  void afterLiftTheDecoderTakesFullSizeFrames() {
    FrameDecoder decoder = FrameDecoder.limitedTo(FrameDecoder.PRE_AUTH_PAYLOAD);
    EmbeddedChannel in = new EmbeddedChannel(decoder);
    decoder.lift();
    assertThat(decoder.limit()).isEqualTo(Frame.MAX_PAYLOAD);
    int size = 1 << 20;
    byte[] payload = new byte[size];
    new Random(5).nextBytes(payload);
    assertThat(in.writeInbound(header(FrameType.PUT.id(), size).writeBytes(payload))).isTrue();
    Frame f = in.readInbound();
    assertThat(f.payload().readableBytes()).isEqualTo(size);
    f.release();
    assertThat(in.finish()).isFalse();
  }

  @Test
  void aLengthOfTwoToTheThirtyFirstIsRefusedBeforeAnyPayloadIsBuffered() {
    for (FrameDecoder decoder : new FrameDecoder[] {new FrameDecoder(), FrameDecoder.limitedTo(FrameDecoder.PRE_AUTH_PAYLOAD)}) {
      EmbeddedChannel in = new EmbeddedChannel(decoder);
      // 0x80000000 as a u32 is 2^31; read as a signed int it is negative: either way, refused
      assertThatThrownBy(() -> in.writeInbound(header(FrameType.PUT.id(), 1L << 31)))
          .isInstanceOf(DecoderException.class);
      assertThat((Object) in.readInbound()).isNull();
      in.finishAndReleaseAll();
    }
  }

  @Test
  void aNegativeLengthIsRefused() {
    EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder());
    assertThatThrownBy(() -> in.writeInbound(header(FrameType.PING.id(), -5)))
        .isInstanceOf(DecoderException.class);
    assertThat((Object) in.readInbound()).isNull();
    in.finishAndReleaseAll();
  }

  @Test
  void aTruncatedFrameYieldsNothing() {
    EmbeddedChannel in = new EmbeddedChannel(FrameDecoder.limitedTo(FrameDecoder.PRE_AUTH_PAYLOAD));
    ByteBuf wire = header(FrameType.AUTH.id(), 32).writeZero(20); // 12 of its 32 payload bytes missing
    assertThat(in.writeInbound(wire)).isFalse();
    assertThat((Object) in.readInbound()).isNull();
    in.finishAndReleaseAll();
  }
}
