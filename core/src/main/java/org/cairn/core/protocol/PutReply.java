package org.cairn.core.protocol;

import java.nio.charset.StandardCharsets;

/**
 * A peer's answer to PUT: {@link Stored} (every piece of the batch is durable), {@link Refused} (none
 * was stored, with the peer's {@link Refusal} reason) or {@link Failed} (any other answer).
 */
public sealed interface PutReply {

  record Stored(int count) implements PutReply {}

  record Refused(String reason) implements PutReply {}

  record Failed(String reason) implements PutReply {}

  /** Decodes a PUT answer; does not release the frame. */
  static PutReply decode(Frame answer) {
    switch (answer.type()) {
      case PUT_OK:
        return new Stored(answer.payload().readableBytes() >= 4 ? answer.payload().getInt(answer.payload().readerIndex()) : -1);
      case REFUSED:
        return new Refused(Refusal.describe(answer.payload()));
      default:
        return new Failed(answer.type() + " " + answer.payload().toString(StandardCharsets.UTF_8));
    }
  }
}
