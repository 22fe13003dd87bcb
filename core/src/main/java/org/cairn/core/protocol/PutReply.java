package org.cairn.core.protocol;

import java.nio.charset.StandardCharsets;
import org.cairn.core.CorruptDataException;

/**
 * A peer's answer to PUT or PUT_SOFT: {@link Stored} (a PUT's pieces are all durable), {@link SoftStored}
 * (a PUT_SOFT's pieces are written and will be durable once the peer reports the soft write number of
 * its {@link SoftAck} durable), {@link Refused} (none was stored, with the peer's {@link Refusal} reason)
 * or {@link Failed} (any other answer, including the acknowledgement of the other kind of PUT). The one
 * decoding of PUT answers: the peers' repair and the client's piece writer both read them here.
 */
public sealed interface PutReply {

  record Stored(int count) implements PutReply {}

  record SoftStored(SoftAck ack) implements PutReply {}

  record Refused(String reason) implements PutReply {}

  record Failed(String reason) implements PutReply {}

  /** Decodes the answer to a PUT; does not release the frame. */
  static PutReply decode(Frame answer) {
    return decode(answer, false);
  }

  /** Decodes the answer to a PUT ({@code soft} false) or a PUT_SOFT ({@code soft} true); does not release the frame. */
  static PutReply decode(Frame answer, boolean soft) {
    FrameType type = answer.type();
    if (type == FrameType.PUT_OK && !soft) {
      return new Stored(answer.payload().readableBytes() >= 4 ? answer.payload().getInt(answer.payload().readerIndex()) : -1);
    }
    if (type == FrameType.PUT_SOFT_OK && soft) {
      try {
        return new SoftStored(SoftAck.decode(answer.payload().duplicate()));
      } catch (CorruptDataException e) {
        return new Failed("a malformed PUT_SOFT_OK: " + e.getMessage());
      }
    }
    if (type == FrameType.REFUSED) {
      return new Refused(Refusal.describe(answer.payload()));
    }
    return new Failed(type + ": " + answer.payload().toString(StandardCharsets.UTF_8));
  }
}
