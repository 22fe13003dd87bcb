package org.cairn.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Round trips through real Netty pipelines (EmbeddedChannel), and bad input of every kind. */
class FrameCodecTest {

  @Test
  void everyType_roundTripsThroughEncoderAndDecoder() {
    EmbeddedChannel out = new EmbeddedChannel(new FrameEncoder());
    EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder());
    int id = 0;
    for (FrameType type : FrameType.values()) {
      byte[] payload = ("payload of " + type).getBytes(StandardCharsets.UTF_8);
      assertThat(out.writeOutbound(Frame.of(type, ++id, payload))).isTrue();
      ByteBuf wire = out.readOutbound();
      assertThat(wire.readableBytes()).isEqualTo(Frame.HEADER + payload.length);
      assertThat(in.writeInbound(wire)).isTrue();
      Frame f = in.readInbound();
      try {
        assertThat(f.type()).isEqualTo(type);
        assertThat(f.requestId()).isEqualTo(id);
        assertThat(f.payload().toString(StandardCharsets.UTF_8)).isEqualTo("payload of " + type);
      } finally {
        f.release();
      }
    }
    assertThat(out.finish()).isFalse();
    assertThat(in.finish()).isFalse();
  }

  @Test
  void largeDirectPayload_isPassedOnBehindItsHeader_uncopied_andDecodesTheSame() {
    EmbeddedChannel out = new EmbeddedChannel(new FrameEncoder());
    EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder());
    byte[] bytes = new byte[FrameEncoder.PASS_THROUGH_BYTES + 17];
    new Random(11).nextBytes(bytes);
    ByteBuf payload = Unpooled.directBuffer(bytes.length).writeBytes(bytes);
    assertThat(out.writeOutbound(new Frame(FrameType.PUT, 7, payload))).isTrue();
    ByteBuf header = out.readOutbound();
    ByteBuf body = out.readOutbound();
    assertThat((Object) out.readOutbound()).isNull();
    assertThat(header.readableBytes()).isEqualTo(Frame.HEADER);
    // the same memory as the caller's buffer, not a copy
    assertThat(body.memoryAddress()).isEqualTo(payload.memoryAddress());
    assertThat(in.writeInbound(header)).isFalse(); // a header alone is not a frame yet
    assertThat(in.writeInbound(body)).isTrue();
    Frame f = in.readInbound();
    try {
      assertThat(f.type()).isEqualTo(FrameType.PUT);
      assertThat(f.requestId()).isEqualTo(7);
      assertThat(io.netty.buffer.ByteBufUtil.getBytes(f.payload())).isEqualTo(bytes);
    } finally {
      f.release();
    }
    // the frame was released by the encoder and the wire buffers by the decoder: nothing holds the payload
    assertThat(payload.refCnt()).isZero();
    assertThat(out.finish()).isFalse();
    assertThat(in.finish()).isFalse();
  }

  @Test
  void smallOrHeapPayloads_goOutAsOneBuffer() {
    EmbeddedChannel out = new EmbeddedChannel(new FrameEncoder());
    ByteBuf small = Unpooled.directBuffer(100).writeZero(100);
    ByteBuf heap = Unpooled.buffer(FrameEncoder.PASS_THROUGH_BYTES * 2).writeZero(FrameEncoder.PASS_THROUGH_BYTES * 2);
    out.writeOutbound(new Frame(FrameType.PUT, 1, small), new Frame(FrameType.PUT, 2, heap));
    ByteBuf a = out.readOutbound();
    ByteBuf b = out.readOutbound();
    assertThat(a.readableBytes()).isEqualTo(Frame.HEADER + 100);
    assertThat(b.readableBytes()).isEqualTo(Frame.HEADER + FrameEncoder.PASS_THROUGH_BYTES * 2);
    assertThat(small.refCnt()).isZero();
    assertThat(heap.refCnt()).isZero();
    a.release();
    b.release();
    assertThat(out.finish()).isFalse();
  }

  @Test
  void framesSplitAndCoalesced_decodeTheSame() {
    ByteBuf wire = Unpooled.buffer();
    for (int i = 0; i < 10; i++) {
      Frame.of(FrameType.PING, i, new byte[i * 100]).encode(wire);
    }
    EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder());
    Random random = new Random(3);
    while (wire.isReadable()) {
      in.writeInbound(wire.readRetainedSlice(Math.min(wire.readableBytes(), 1 + random.nextInt(300))));
    }
    wire.release();
    for (int i = 0; i < 10; i++) {
      Frame f = in.readInbound();
      assertThat(f.requestId()).isEqualTo(i);
      assertThat(f.payload().readableBytes()).isEqualTo(i * 100);
      f.release();
    }
    assertThat((Object) in.readInbound()).isNull();
    in.finishAndReleaseAll();
  }

  @Test
  void aPutSizedFrameInSocketSizedReads_decodesByteForByte_andReleasesEveryRead() {
    byte[] payload = new byte[4 << 20];
    new Random(11).nextBytes(payload);
    ByteBuf wire = Unpooled.buffer();
    Frame.of(FrameType.PING, 7, payload).encode(wire);
    Frame.of(FrameType.PING, 8, new byte[] {1, 2, 3}).encode(wire); // a small one behind it, in the last read
    EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder());
    java.util.List<ByteBuf> reads = new java.util.ArrayList<>();
    while (wire.isReadable()) { // as the socket hands them over: direct buffers of up to 64 KiB
      ByteBuf read = io.netty.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(64 << 10);
      read.writeBytes(wire, Math.min(wire.readableBytes(), 64 << 10));
      reads.add(read);
      in.writeInbound(read);
    }
    wire.release();
    Frame big = in.readInbound();
    Frame small = in.readInbound();
    assertThat(big.requestId()).isEqualTo(7);
    assertThat(io.netty.buffer.ByteBufUtil.getBytes(big.payload())).isEqualTo(payload);
    assertThat(small.requestId()).isEqualTo(8);
    assertThat(io.netty.buffer.ByteBufUtil.getBytes(small.payload())).containsExactly(1, 2, 3);
    big.release();
    small.release();
    in.finishAndReleaseAll();
    assertThat(reads).allSatisfy(r -> assertThat(r.refCnt()).isZero());
  }

  @Test
  void oversizedLength_isRefusedBeforeThePayloadArrives() {
    EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder());
    ByteBuf header = Unpooled.buffer();
    header.writeShort(Frame.MAGIC).writeByte(Frame.VERSION).writeByte(FrameType.PING.id()).writeInt(1).writeInt(Frame.MAX_PAYLOAD + 1);
    assertThatThrownBy(() -> in.writeInbound(header)).isInstanceOf(TooLongFrameException.class);
    in.finishAndReleaseAll();
  }

  @Test
  void badMagicVersionOrType_areCorruptFrames() {
    for (int field = 0; field < 3; field++) {
      ByteBuf b = Unpooled.buffer();
      b.writeShort(field == 0 ? 0xBEEF : Frame.MAGIC);
      b.writeByte(field == 1 ? 9 : Frame.VERSION);
      b.writeByte(field == 2 ? 200 : FrameType.PING.id());
      b.writeInt(1).writeInt(0);
      EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder());
      assertThatThrownBy(() -> in.writeInbound(b)).isInstanceOfAny(CorruptedFrameException.class, DecoderException.class);
      in.finishAndReleaseAll();
    }
  }

  @Test
  void truncatedInput_yieldsNothingAndHoldsNoFrame() {
    ByteBuf wire = Unpooled.buffer();
    Frame.of(FrameType.PING, 5, new byte[1000]).encode(wire);
    EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder());
    assertThat(in.writeInbound(wire.retainedSlice(0, 500))).isFalse();
    assertThat((Object) in.readInbound()).isNull();
    wire.release();
    in.finishAndReleaseAll();
  }

  @Test
  void fuzz_randomAndMutatedBytesNeverEscapeAsAnythingButDecoderErrors() {
    Random random = new Random(1234);
    ByteBuf valid = Unpooled.buffer();
    Frame.of(FrameType.AUTH, 77, new byte[32]).encode(valid);
    byte[] seed = new byte[valid.readableBytes()];
    valid.readBytes(seed);
    valid.release();
    for (int i = 0; i < 5000; i++) {
      byte[] input;
      if (random.nextBoolean()) {
        input = seed.clone();
        for (int f = 1 + random.nextInt(3); f > 0; f--) {
          input[random.nextInt(input.length)] = (byte) random.nextInt(256);
        }
      } else {
        input = new byte[random.nextInt(80)];
        random.nextBytes(input);
      }
      EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder());
      try {
        in.writeInbound(Unpooled.wrappedBuffer(input));
        Object o;
        while ((o = in.readInbound()) != null) {
          Frame f = (Frame) o;
          assertThat(f.payload().readableBytes()).isLessThanOrEqualTo(Frame.MAX_PAYLOAD);
          f.release();
        }
        in.finishAndReleaseAll(); // closing decodes what is left, which may be bad too
      } catch (DecoderException e) {
        // expected for bad input: the data handler closes the connection on it
        in.releaseInbound();
        in.releaseOutbound();
      }
    }
  }

  @Test
  void frame_refusesAnOversizedPayloadOnConstruction() {
    ByteBuf big = Unpooled.buffer(Frame.MAX_PAYLOAD + 1).writerIndex(Frame.MAX_PAYLOAD + 1);
    assertThatThrownBy(() -> new Frame(FrameType.PING, 1, big)).hasMessageContaining("exceeds");
    assertThat(big.refCnt()).as("released on refusal").isZero();
  }
}
