package org.cairn.core.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Why a peer refused a PUT (payload of REFUSED: u8 reason, then a UTF-8 message). Clients act on the
 * reason: FULL, BUSY and PAUSED are temporary (try another host now, this one later), QUOTA and DISK
 * mean this host has no room, CORRUPT means the client sent a bad fragment.
 */
public enum Refusal {
  FULL(1), BUSY(2), PAUSED(3), QUOTA(4), DISK(5), CORRUPT(6), SHUTTING_DOWN(7);

  private final int code;

  Refusal(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public static Refusal fromCode(int code) {
    for (Refusal r : values()) {
      if (r.code == code) {
        return r;
      }
    }
    throw new IllegalArgumentException("unknown refusal code " + code);
  }

  public byte[] encode(String message) {
    byte[] m = message.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[1 + m.length];
    out[0] = (byte) code;
    System.arraycopy(m, 0, out, 1, m.length);
    return out;
  }

  /** Reason and message of a REFUSED payload. */
  public static String describe(ByteBuf payload) {
    if (!payload.isReadable()) {
      return "refused";
    }
    int code = payload.getUnsignedByte(payload.readerIndex());
    String msg = payload.toString(payload.readerIndex() + 1, payload.readableBytes() - 1, StandardCharsets.UTF_8);
    try {
      return fromCode(code) + ": " + msg;
    } catch (IllegalArgumentException e) {
      return "refused (" + code + "): " + msg;
    }
  }
}
