package org.cairn.core.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.cairn.core.hash.ChunkId;

/**
 * A capability on the data plane: the tracker signs that {@code requester} may do {@code op} on the
 * pieces of {@code chunks} held by (or sent to) peer {@code peer} until {@code expiresAt} (epoch ms).
 * A peer serves GET/HAS only for READ and PUT only for WRITE grants naming itself; a ticket naming
 * another peer, past its time or not signed by its tracker is refused. Wire form (big-endian),
 * base64url in JSON:
 *
 * <pre>
 *  0  2  magic 'CT'
 *  2  1  version (1)
 *  3  1  op (1 READ, 2 WRITE, 3 LIST)
 *  4  8  expiresAt, epoch ms
 * 12  1  peer id length P (1-64), then P bytes UTF-8
 *  .  1  requester length R (1-64), then R bytes UTF-8
 *  .  4  chunk count C (1-{@link #MAX_CHUNKS}), then C x 32-byte chunk ids
 *  .  2  signature length S (1-512), then S bytes: the signature of everything before the length
 * </pre>
 */
public record Ticket(Op op, long expiresAt, String peer, String requester, List<ChunkId> chunks, byte[] signature) {
  public static final int MAX_CHUNKS = 65_536;
  private static final int MAGIC = 0x4354;
  private static final int VERSION = 1;

  /** What a ticket allows. */
  public enum Op {
    /** GET and HAS. */
    READ(1),
    /** PUT. */
    WRITE(2),
    /**
     * INVENTORY: the peer's keys, page by page. Names no chunks. Only a tracker rebuilding its catalog
     * from the peers asks ({@code cairn-tracker recover --from-peers}).
     */
    LIST(3);

    private final int code;

    Op(int code) {
      this.code = code;
    }

    static Op of(int code) {
      for (Op o : values()) {
        if (o.code == code) {
          return o;
        }
      }
      throw new IllegalArgumentException("unknown ticket op " + code);
    }
  }

  public Ticket {
    Objects.requireNonNull(op, "op");
    checkName("peer", peer);
    checkName("requester", requester);
    chunks = List.copyOf(chunks);
    if (op == Op.LIST ? !chunks.isEmpty() : chunks.isEmpty() || chunks.size() > MAX_CHUNKS) {
      if (op == Op.LIST) {
        throw new IllegalArgumentException("a LIST ticket names no chunks, not " + chunks.size());
      }
      throw new IllegalArgumentException("a ticket names 1-" + MAX_CHUNKS + " chunks, not " + chunks.size());
    }
    signature = signature == null ? null : signature.clone();
  }

  /** The bytes the tracker signs. */
  public byte[] signedBytes() {
    byte[] p = peer.getBytes(StandardCharsets.UTF_8);
    byte[] r = requester.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(2 + 1 + 1 + 8 + 1 + p.length + 1 + r.length + 4 + chunks.size() * ChunkId.LENGTH);
    b.putShort((short) MAGIC).put((byte) VERSION).put((byte) op.code).putLong(expiresAt);
    b.put((byte) p.length).put(p).put((byte) r.length).put(r).putInt(chunks.size());
    for (ChunkId c : chunks) {
      b.put(c.toBytes());
    }
    return b.array();
  }

  /** This ticket with its signature. */
  public Ticket signed(byte[] sig) {
    return new Ticket(op, expiresAt, peer, requester, chunks, sig);
  }

  public byte[] encode() {
    if (signature == null || signature.length == 0 || signature.length > 512) {
      throw new IllegalStateException("an unsigned ticket cannot be sent");
    }
    byte[] body = signedBytes();
    return ByteBuffer.allocate(body.length + 2 + signature.length).put(body).putShort((short) signature.length).put(signature).array();
  }

  public String toBase64() {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(encode());
  }

  public static Ticket fromBase64(String s) {
    if (s == null || s.length() > 4 * (MAX_CHUNKS * ChunkId.LENGTH + 1024) / 3) {
      throw new IllegalArgumentException("not a ticket: missing or too long");
    }
    try {
      return decode(Base64.getUrlDecoder().decode(s));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a ticket: " + e.getMessage(), e);
    }
  }

  /** Parses a ticket (the signature is not checked here: see {@link TicketVerifier}); malformed input throws IllegalArgumentException. */
  public static Ticket decode(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    need(b, 12, "header");
    if ((b.getShort() & 0xFFFF) != MAGIC) {
      throw new IllegalArgumentException("bad ticket magic");
    }
    int version = b.get() & 0xFF;
    if (version != VERSION) {
      throw new IllegalArgumentException("unsupported ticket version " + version);
    }
    Op op = Op.of(b.get() & 0xFF);
    long expires = b.getLong();
    String peer = string(b, "peer id");
    String requester = string(b, "requester");
    need(b, 4, "chunk count");
    int count = b.getInt();
    if (op == Op.LIST ? count != 0 : count < 1 || count > MAX_CHUNKS) {
      throw new IllegalArgumentException("ticket chunk count " + count + " is not " + (op == Op.LIST ? "0 for LIST" : "1-" + MAX_CHUNKS));
    }
    need(b, (long) count * ChunkId.LENGTH, "chunk ids");
    List<ChunkId> chunks = new ArrayList<>(count);
    byte[] id = new byte[ChunkId.LENGTH];
    for (int i = 0; i < count; i++) {
      b.get(id);
      chunks.add(ChunkId.fromBytes(id));
    }
    need(b, 2, "signature length");
    int sigLength = b.getShort() & 0xFFFF;
    if (sigLength < 1 || sigLength > 512) {
      throw new IllegalArgumentException("ticket signature length " + sigLength + " is not 1-512");
    }
    need(b, sigLength, "signature");
    byte[] sig = new byte[sigLength];
    b.get(sig);
    if (b.hasRemaining()) {
      throw new IllegalArgumentException(b.remaining() + " bytes after the ticket's signature");
    }
    return new Ticket(op, expires, peer, requester, chunks, sig);
  }

  private static String string(ByteBuffer b, String what) {
    need(b, 1, what + " length");
    int n = b.get() & 0xFF;
    if (n < 1 || n > 64) {
      throw new IllegalArgumentException("ticket " + what + " length " + n + " is not 1-64");
    }
    need(b, n, what);
    byte[] s = new byte[n];
    b.get(s);
    return new String(s, StandardCharsets.UTF_8);
  }

  private static void need(ByteBuffer b, long n, String what) {
    if (b.remaining() < n) {
      throw new IllegalArgumentException("ticket truncated in its " + what);
    }
  }

  private static void checkName(String what, String s) {
    if (s == null || s.isEmpty() || s.getBytes(StandardCharsets.UTF_8).length > 64) {
      throw new IllegalArgumentException("a ticket's " + what + " is 1-64 bytes of UTF-8");
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Ticket t && Arrays.equals(encodeOrBody(), t.encodeOrBody());
  }

  @Override
  public int hashCode() {
    return signature == null ? Arrays.hashCode(signedBytes()) : Arrays.hashCode(signature); // cheap for big tickets
  }

  private byte[] encodeOrBody() {
    return signature == null ? signedBytes() : encode();
  }

  @Override
  public String toString() {
    return "Ticket[" + op + " on " + peer + " for " + requester + ", " + chunks.size() + " chunks, until " + expiresAt + "]";
  }
}
