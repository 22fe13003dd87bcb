package org.cairn.peer.server;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.security.Ticket;
import org.cairn.core.security.TicketVerifier;

/**
 * The data plane's capability check. A peer serves GET and HAS only for chunks a READ
 * ticket, and takes PUT only for chunks a WRITE ticket, granted on the same connection; tickets are
 * signed by the grid's tracker, name this peer and expire. So a donor holding the data-plane key (as
 * every peer does) still cannot read or fill another peer, and a ticket seen by one peer is no use
 * on another. Until the peer knows its tracker's key (before its first registration) it serves none.
 *
 * <p>It also tells repair writes from client stores: the tracker names the credential a ticket was
 * issued to as its requester ({@code role:tokenId}); a client store's WRITE tickets go to a client
 * credential, a repair executor's to the peer's (its own {@code peer:} credential, or the operator's
 * {@code admin:} token a peer may run with). Pieces stored durably under a WRITE ticket not issued to
 * a client go to the rebuilt-pieces listener, which lists them to the tracker at once rather than at
 * the next inventory (the tracker counts a rebuilt piece only when its target lists it; listing
 * other keys costs it a lookup and changes nothing).
 */
public final class TicketGate {
  private final Supplier<TicketVerifier> verifier;
  private final Supplier<String> self;
  private final Clock clock;
  private final boolean required;
  private final Consumer<List<FragmentKey>> rebuilt;
  /** The requester prefix of tickets the tracker issues to clients (whose writes are stores, not repairs). */
  static final String CLIENT_REQUESTER = "client:";

  /** @param verifier the tracker's key once known (null before); @param self this peer's id once known */
  public TicketGate(Supplier<TicketVerifier> verifier, Supplier<String> self, Clock clock) {
    this(verifier, self, clock, keys -> { });
  }

  /**
   * @param rebuilt told (on the data plane's event loop: it must not block) the keys of pieces a
   *     repair executor stored here durably
   */
  public TicketGate(Supplier<TicketVerifier> verifier, Supplier<String> self, Clock clock, Consumer<List<FragmentKey>> rebuilt) {
    this(verifier, self, clock, true, rebuilt);
  }

  private TicketGate(Supplier<TicketVerifier> verifier, Supplier<String> self, Clock clock, boolean required,
      Consumer<List<FragmentKey>> rebuilt) {
    this.verifier = verifier;
    this.self = self;
    this.clock = clock;
    this.required = required;
    this.rebuilt = rebuilt;
  }

  /**
   * No tickets asked: for unit tests of the data handler's other rules and of tools that run a
   * fragment server without a tracker. A peer daemon never uses it.
   */
  public static TicketGate notRequired() {
    return new TicketGate(() -> null, () -> null, Clock.systemUTC(), false, keys -> { });
  }

  boolean required() {
    return required;
  }

  /** This peer's id, or null before it has registered. */
  String self() {
    return self.get();
  }

  /** Pieces a repair executor stored here durably (see {@link Grants#rebuilt}). */
  void rebuiltStored(List<FragmentKey> keys) {
    if (!keys.isEmpty()) {
      rebuilt.accept(keys);
    }
  }

  Grants newConnection() {
    return new Grants();
  }

  /** One connection's grants: chunk -> until when, per op. */
  final class Grants {
    private final Map<ChunkId, Long> read = new HashMap<>();
    private final Map<ChunkId, Long> write = new HashMap<>();
    /** The WRITE grants of tickets not issued to clients: what is stored under them is taken for a rebuilt piece. */
    private final Map<ChunkId, Long> repairWrite = new HashMap<>();
    /** Until when a LIST ticket lets this connection list the peer's keys (0: never). */
    private long listUntil;

    /** Checks a presented ticket and adds its grants; returns how many chunks it names. */
    int accept(byte[] encoded) {
      TicketVerifier v = verifier.get();
      String me = self.get();
      if (v == null || me == null) {
        throw new SecurityException("this peer does not know its tracker's ticket key yet (not registered)");
      }
      Ticket t = v.check(Ticket.decode(encoded), me, clock.millis());
      if (t.op() == Ticket.Op.LIST) {
        listUntil = Math.max(listUntil, t.expiresAt());
        return 0;
      }
      Map<ChunkId, Long> grants = t.op() == Ticket.Op.READ ? read : write;
      if (grants.size() > 4 * Ticket.MAX_CHUNKS) {
        grants.values().removeIf(until -> until <= clock.millis());
      }
      for (ChunkId c : t.chunks()) {
        grants.merge(c, t.expiresAt(), Math::max);
      }
      if (t.op() == Ticket.Op.WRITE && !t.requester().startsWith(CLIENT_REQUESTER)) {
        if (repairWrite.size() > 4 * Ticket.MAX_CHUNKS) {
          repairWrite.values().removeIf(until -> until <= clock.millis());
        }
        for (ChunkId c : t.chunks()) {
          repairWrite.merge(c, t.expiresAt(), Math::max);
        }
      }
      return t.chunks().size();
    }

    /** INVENTORY: a LIST ticket, unexpired, on this connection (or no tickets required at all). */
    void requireList() {
      if (!required) {
        return;
      }
      if (listUntil == 0) {
        throw new SecurityException("no LIST ticket on this connection (a peer's holdings are listed only to its tracker)");
      }
      if (clock.millis() >= listUntil) {
        throw new SecurityException("the LIST ticket expired");
      }
    }

    void requireRead(ChunkId id) {
      require(read, id, "READ");
    }

    /** Each fragment's readable bytes; the chunk id is header bytes 28..60. */
    void requireWrite(List<io.netty.buffer.ByteBuf> fragments) {
      byte[] id = new byte[32];
      for (io.netty.buffer.ByteBuf f : fragments) {
        if (f.readableBytes() < 64) {
          throw new IllegalArgumentException("a fragment of " + f.readableBytes() + " bytes is shorter than its header");
        }
        f.getBytes(f.readerIndex() + 28, id);
        require(write, ChunkId.fromBytes(id, 0), "WRITE");
      }
    }

    /**
     * The keys of the fragments (verified, just stored) written under a WRITE ticket on this
     * connection not issued to a client (a repair executor's); none where tickets are not required.
     */
    List<FragmentKey> rebuilt(List<io.netty.buffer.ByteBuf> fragments) {
      if (repairWrite.isEmpty()) {
        return List.of();
      }
      long now = clock.millis();
      List<FragmentKey> out = new ArrayList<>();
      byte[] id = new byte[32];
      for (io.netty.buffer.ByteBuf f : fragments) {
        int at = f.readerIndex();
        f.getBytes(at + 28, id);
        ChunkId chunk = ChunkId.fromBytes(id, 0);
        Long until = repairWrite.get(chunk);
        if (until != null && now < until) {
          out.add(new FragmentKey(chunk, f.getUnsignedByte(at + 7), f.getInt(at + 60)));
        }
      }
      return out;
    }

    private void require(Map<ChunkId, Long> grants, ChunkId id, String op) {
      if (!required) {
        return;
      }
      Long until = grants.get(id);
      if (until == null) {
        throw new SecurityException("no " + op + " ticket for chunk " + id.shortHex() + " on this connection");
      }
      if (clock.millis() >= until) {
        throw new SecurityException("the " + op + " ticket for chunk " + id.shortHex() + " expired");
      }
    }
  }
}
