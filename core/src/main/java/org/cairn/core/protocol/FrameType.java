package org.cairn.core.protocol;

/** Message types of the data plane, with explicit byte ids (docs/protocol.md). */
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
  PONG(6),
  /** client -> peer: a batch of fragments to store ({@link FragmentBatch}). */
  PUT(10),
  /** peer -> client: all fragments of the PUT are durable; payload u32 count. */
  PUT_OK(11),
  /** peer -> client: the PUT was refused as a whole ({@link Refusal}); nothing was stored. */
  REFUSED(12),
  /** client -> peer: one fragment by key ({@link FragmentKey}). */
  GET(13),
  /** peer -> client: the fragment's bytes (header + payload), verified. */
  FRAGMENT(14),
  /** peer -> client: the fragment is not here (or was corrupt and has been dropped); payload UTF-8 reason. */
  NOT_FOUND(15),
  /** client -> peer: which of these keys are held ({@link FragmentKey#encodeList}). */
  HAS(16),
  /** peer -> client: one byte per asked key, 1 if held. */
  HAS_RESULT(17),
  /**
   * client -> peer: list held keys after a start key (empty payload: from the start). Needs a LIST
   * ticket on a grid with tickets (only a tracker recovering its catalog from the peers lists).
   */
  INVENTORY(18),
  /** peer -> client: u8 more-flag, then a key list. */
  INVENTORY_RESULT(19),
  /** client -> peer: delete these keys (tracker-ordered garbage collection). */
  DELETE(20),
  /** peer -> client: payload u32 count deleted. */
  DELETE_OK(21),
  /** client -> peer: u32 bytes to send back, then any bytes (bandwidth probe). */
  PROBE(22),
  /** peer -> client: the requested number of bytes. */
  PROBE_RESULT(23),
  /** client -> peer: a tracker-signed {@link org.cairn.core.security.Ticket}; its grants hold on this connection. */
  TICKET(24),
  /** peer -> client: the ticket checked; payload u32 chunks granted. */
  TICKET_OK(25),
  /**
   * client -> peer: as {@link #PUT}, acknowledged once the fragments are written but before they are
   * durable (the soft level of the two-level scheme); the peer makes them durable in the background.
   */
  PUT_SOFT(26),
  /** peer -> client: the PUT_SOFT's fragments are written ({@link SoftAck}: count, boot id, soft write number). */
  PUT_SOFT_OK(27),
  /** client -> peer: which peer is this? (empty payload) */
  IDENTIFY(28),
  /** peer -> client: UTF-8 peer id (empty before the peer has registered). */
  IDENTITY(29);

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
