package org.cairn.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The one decoding of a peer's answer to PUT and PUT_SOFT: each answer, and the acknowledgement of the other kind. */
class PutReplyTest {
  private static Frame frame(FrameType type, byte[] payload) {
    return Frame.of(type, 7, payload);
  }

  @Test
  void aPutOkToAPut_isStored_withItsCount() {
    Frame f = new Frame(FrameType.PUT_OK, 7, Unpooled.buffer().writeInt(3));
    assertThat(PutReply.decode(f)).isEqualTo(new PutReply.Stored(3));
    assertThat(PutReply.decode(f, false)).isEqualTo(new PutReply.Stored(3));
  }

  @Test
  void aPutSoftOkToAPutSoft_isSoftStored_withTheBootAndSoftWriteNumber() {
    Frame f = new Frame(FrameType.PUT_SOFT_OK, 7, new SoftAck(2, 0xB007L, 41).encode());
    assertThat(PutReply.decode(f, true)).isEqualTo(new PutReply.SoftStored(new SoftAck(2, 0xB007L, 41)));
    assertThat(f.payload().readerIndex()).as("the frame is left as it was").isZero();
  }

  @Test
  void theAcknowledgementOfTheOtherKindOfPut_isAFailure() {
    assertThat(PutReply.decode(new Frame(FrameType.PUT_SOFT_OK, 7, new SoftAck(1, 1, 1).encode()), false))
        .isInstanceOf(PutReply.Failed.class);
    assertThat(PutReply.decode(frame(FrameType.PUT_OK, "ok".getBytes(StandardCharsets.UTF_8)), true))
        .isEqualTo(new PutReply.Failed("PUT_OK: ok"));
  }

  @Test
  void aMalformedSoftAcknowledgement_isAFailureSayingSo() {
    PutReply r = PutReply.decode(frame(FrameType.PUT_SOFT_OK, new byte[5]), true);
    assertThat(r).isInstanceOf(PutReply.Failed.class);
    assertThat(((PutReply.Failed) r).reason()).startsWith("a malformed PUT_SOFT_OK: ");
  }

  @Test
  void aRefusal_carriesTheReasonAndMessage_toEitherKind() {
    byte[] full = Refusal.FULL.encode("disk at 95 %");
    assertThat(PutReply.decode(frame(FrameType.REFUSED, full), false)).isEqualTo(new PutReply.Refused("FULL: disk at 95 %"));
    assertThat(PutReply.decode(frame(FrameType.REFUSED, full), true)).isEqualTo(new PutReply.Refused("FULL: disk at 95 %"));
  }

  @Test
  void anyOtherAnswer_isAFailureNamingItsTypeAndText() {
    assertThat(PutReply.decode(frame(FrameType.ERROR, "no ticket".getBytes(StandardCharsets.UTF_8)), true))
        .isEqualTo(new PutReply.Failed("ERROR: no ticket"));
  }
}
