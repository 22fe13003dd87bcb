package org.cairn.core.protocol;

/** Message types of the data plane, with explicit byte ids (ARCHITECTURE.md §8). */
public enum FrameType {
  /** server -> client on connect: 32 random bytes to prove the token against. */
  CHALLENGE(1),
  /** client -> server: HMAC-SHA256(token, challenge). */
  AUTH(2),
  /** server -> client: authenticated; requests may follow. */
  AUTH_OK(3),
  /** either way: UTF-8 message; the connection is closed after it. */
  ERROR(4),
  PING(5),
  PONG(6);

  private final int id;

  FrameType(int id) {
    this.id = id;
  }

  public int id() {
    return id;
  }

  private static final FrameType[] BY_ID = new FrameType[256];

  static {
    for (FrameType t : values()) {
      BY_ID[t.id] = t;
    }
  }

  /** The type with this id, or null. */
  public static FrameType fromId(int id) {
    return id >= 0 && id < 256 ? BY_ID[id] : null;
  }
}
