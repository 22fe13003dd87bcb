package org.cairn.core.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.protocol.PieceReply;
import org.cairn.core.protocol.PutReply;
import org.cairn.core.security.GridToken;

/**
 * The data plane as one process sees it: a pool of authenticated connections, one per peer address,
 * and the typed operations on them. A connection that fails or closes is dropped from the pool, so
 * the next call opens a new one (a pool never hands out a closed connection twice). Failures to reach
 * a peer complete the futures exceptionally with an {@link IOException} naming the peer; answers the
 * peer gave are values ({@link PieceReply}, {@link PutReply}).
 *
 * <p>With TLS, a connection is made only to a peer whose certificate (from the pinned CA) names the
 * address dialled and, once this client knows which peer is at that address, that peer's id: the
 * tracker's tickets for an address name the peer ({@link #addTickets}), or a caller says it
 * ({@link #expect}). Every GET, HAS and PUT needs a ticket, so each is sent only to the peer the
 * tracker named; requests that need none (PING, PROBE, IDENTIFY) to an address not yet known are
 * checked by host alone.
 */
public final class PeerClient implements Closeable {
  private final EventLoopGroup group;
  private volatile GridToken token;
  /** The CA pin of a grid with TLS (null: plain), and its context once built ({@link Tls#context}). */
  private volatile Tls tls;
  private final Duration timeout;
  private final Map<String, CompletableFuture<PeerConnection>> pool = new ConcurrentHashMap<>();
  private volatile boolean closed;
  /** Tickets to present to each address (by data address), pruned as they expire. */
  private final Map<String, TicketBook> tickets = new ConcurrentHashMap<>();
  /** Which peer each address is (the id the tracker's tickets for it name): its TLS certificate must name it. */
  private final Map<String, String> expected = new ConcurrentHashMap<>();

  public PeerClient(EventLoopGroup group, GridToken token, Duration timeout) {
    this.group = group;
    this.token = token;
    this.timeout = timeout;
  }

  public Duration timeout() {
    return timeout;
  }

  /** Connections opened from now on prove {@code key} (the grid's data-plane key, once known). */
  public void useKey(GridToken key) {
    this.token = java.util.Objects.requireNonNull(key, "key");
  }

  /**
   * Connections opened from now on use TLS trusting only the CA {@code caPin} names (a grid whose
   * tracker runs with {@code --tls}); pooled plain connections are dropped.
   */
  public void useTls(String caPin) {
    new org.cairn.core.security.PinnedTrust(caPin, true); // a malformed pin is refused here, not at the first connection
    this.tls = new Tls(caPin);
    pool.clear();
  }

  /**
   * A grid's TLS: the pin at once, the context at the first connection. Building it first loads BoringSSL and netty's
   * TLS classes (0.2-0.25 s of one core in a new JVM): a one-command process's preload thread does that while the main
   * thread talks to the tracker, which it did on the main thread itself when the context was built at {@link #useTls}.
   */
  private static final class Tls {
    final String pin;
    private io.netty.handler.ssl.SslContext context;

    Tls(String pin) {
      this.pin = pin;
    }

    synchronized io.netty.handler.ssl.SslContext context() {
      if (context == null) {
        context = DataTls.client(pin); // throws if it cannot be set up: never a plain connection instead
      }
      return context;
    }
  }

  /** The pooled connection to {@code address}, opened (or reopened) when needed. */
  public CompletableFuture<PeerConnection> connection(String address) {
    if (closed) {
      return CompletableFuture.failedFuture(new IOException("peer client is closed"));
    }
    while (true) {
      Tls t = tls;
      io.netty.handler.ssl.SslContext context;
      try {
        context = t == null ? null : t.context();
      } catch (IllegalStateException e) {
        return CompletableFuture.failedFuture(new IOException(e.getMessage(), e));
      }
      CompletableFuture<PeerConnection> c = pool.computeIfAbsent(address, a -> {
        CompletableFuture<PeerConnection> f = PeerConnection.connect(group, a, token, timeout, context, expected.get(a));
        f.whenComplete((conn, error) -> {
          if (error != null) {
            pool.remove(a, f);
          }
        });
        return f;
      });
      if (c.isDone() && !c.isCompletedExceptionally() && !c.join().isActive()) {
        pool.remove(address, c); // closed since it was pooled: open another
        continue;
      }
      if (c.isDone() && !c.isCompletedExceptionally() && tls != null && !checkedAsExpected(address, c.join())) {
        if (pool.remove(address, c)) { // opened before this client knew which peer is there: check again
          c.join().closeSoon();
        }
        continue;
      }
      return c;
    }
  }

  /**
   * Tickets the tracker signed for the peer at {@code address}: every request to it from now on is
   * preceded, once per connection, by those not yet presented there. The peer they name is the one
   * this client expects at {@code address} from now on ({@link #expect}).
   */
  public void addTickets(String address, java.util.Collection<org.cairn.core.security.Ticket> granted) {
    for (org.cairn.core.security.Ticket t : granted) {
      expect(address, t.peer());
    }
    tickets.computeIfAbsent(address, a -> new TicketBook()).add(granted, System.currentTimeMillis());
  }

  /**
   * The peer at {@code address} is {@code peerId} (as the tracker says): on a grid with TLS, a
   * connection there is used only if the peer's certificate names that id; a pooled one checked
   * against no id, or another, is replaced at its next use.
   */
  public void expect(String address, String peerId) {
    if (peerId != null) {
      expected.put(address, peerId);
    }
  }

  /** Whether {@code conn} was checked for the peer now expected at {@code address} (or none is expected). */
  private boolean checkedAsExpected(String address, PeerConnection conn) {
    String want = expected.get(address);
    return want == null || want.equals(conn.verifiedPeer());
  }

  /** Presents on {@code conn} the tickets for {@code address} it has not seen; call before sending requests on it directly. */
  public PeerConnection presentTickets(String address, PeerConnection conn) {
    TicketBook book = tickets.get(address);
    if (book != null) {
      conn.present(book);
    }
    return conn;
  }

  /** Sends one request on the pooled connection; the payload's ownership passes to the call. */
  public CompletableFuture<Frame> call(String address, FrameType type, ByteBuf payload) {
    CompletableFuture<PeerConnection> c = connection(address);
    return c.handle((conn, error) -> {
      if (error != null) {
        payload.release();
        throw new CompletionException(unwrap(error));
      }
      return conn;
    }).thenCompose(conn -> {
      if (tls != null && !checkedAsExpected(address, conn)) { // opening when the peer there became known: check again
        if (pool.remove(address, c)) {
          conn.closeSoon();
        }
        return call(address, type, payload);
      }
      return presentTickets(address, conn).call(type, payload);
    }).whenComplete((frame, error) -> {
      if (error != null) {
        drop(address, c);
      }
    });
  }

  /** One piece by key. */
  public CompletableFuture<PieceReply> get(String address, FragmentKey key) {
    return call(address, FrameType.GET, Unpooled.wrappedBuffer(key.toBytes())).thenApply(frame -> {
      try {
        return PieceReply.decode(frame, key);
      } finally {
        frame.release();
      }
    });
  }

  /** A batch of pieces ({@code FragmentBatch}-encoded payload, owned by the call), acknowledged once durable. */
  public CompletableFuture<PutReply> put(String address, ByteBuf batch) {
    return put(address, batch, false);
  }

  /**
   * A batch of pieces ({@code FragmentBatch}-encoded payload, owned by the call) as a PUT, or with {@code soft} as a
   * PUT_SOFT: acknowledged once written ({@link PutReply.SoftStored}), durable later.
   */
  public CompletableFuture<PutReply> put(String address, ByteBuf batch, boolean soft) {
    return call(address, soft ? FrameType.PUT_SOFT : FrameType.PUT, batch).thenApply(frame -> {
      try {
        return PutReply.decode(frame, soft);
      } finally {
        frame.release();
      }
    });
  }

  /** Which of these pieces the peer holds (one answer per key, in order). */
  public CompletableFuture<boolean[]> has(String address, List<FragmentKey> keys) {
    ByteBuf payload = Unpooled.buffer(4 + keys.size() * FragmentKey.SIZE);
    FragmentKey.encodeList(keys, payload);
    return call(address, FrameType.HAS, payload).thenApply(frame -> {
      try {
        byte[] held = ByteBufUtil.getBytes(frame.payload());
        if (frame.type() != FrameType.HAS_RESULT || held.length != keys.size()) {
          throw new CompletionException(new IOException("peer " + address + " answered HAS with " + frame.type() + " of "
              + held.length + " bytes for " + keys.size() + " keys"));
        }
        boolean[] out = new boolean[held.length];
        for (int i = 0; i < held.length; i++) {
          out[i] = held[i] == 1;
        }
        return out;
      } finally {
        frame.release();
      }
    });
  }

  /** The peer's id (IDENTIFY); empty if it has not registered yet. */
  public CompletableFuture<String> identify(String address) {
    return call(address, FrameType.IDENTIFY, Unpooled.EMPTY_BUFFER).thenApply(frame -> {
      try {
        if (frame.type() != FrameType.IDENTITY) {
          throw new CompletionException(new IOException("peer " + address + " answered IDENTIFY with " + frame.type() + ": "
              + frame.payload().toString(java.nio.charset.StandardCharsets.UTF_8)));
        }
        return frame.payload().toString(java.nio.charset.StandardCharsets.UTF_8);
      } finally {
        frame.release();
      }
    });
  }

  /** One page of the keys a peer holds, after {@code after} (null: from the start); needs a LIST ticket on a grid with tickets. */
  public CompletableFuture<InventoryPage> inventory(String address, FragmentKey after) {
    ByteBuf payload = after == null ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(after.toBytes());
    return call(address, FrameType.INVENTORY, payload).thenApply(frame -> {
      try {
        if (frame.type() != FrameType.INVENTORY_RESULT) {
          throw new CompletionException(new IOException("peer " + address + " answered INVENTORY with " + frame.type() + ": "
              + frame.payload().toString(java.nio.charset.StandardCharsets.UTF_8)));
        }
        ByteBuf p = frame.payload();
        boolean more = p.readByte() == 1;
        return new InventoryPage(FragmentKey.decodeList(p), more);
      } finally {
        frame.release();
      }
    });
  }

  /** A page of a peer's keys, and whether more follow. */
  public record InventoryPage(List<FragmentKey> keys, boolean more) {}

  /** A round trip (PING/PONG). */
  public CompletableFuture<Void> ping(String address) {
    return call(address, FrameType.PING, Unpooled.EMPTY_BUFFER).thenAccept(Frame::release);
  }

  /**
   * Keeps open the pooled connections a request used within {@code within}: each gets a PING, which a
   * peer reads as activity (it closes a connection that reads nothing for two minutes). A process that
   * stores every few minutes (a resident agent) thus keeps its connections between checkpoints; one
   * opened again costs both sides its authentication, the tickets presented again, receive buffers
   * grown again from their smallest, and the peer's JIT compiling the paths that ramp-up takes. Opens
   * nothing, and leaves connections idle longer than {@code within} to close. Returns how many it pinged.
   */
  public int keepAlive(Duration within) {
    long now = System.nanoTime();
    int pinged = 0;
    for (CompletableFuture<PeerConnection> c : pool.values()) {
      if (!c.isDone() || c.isCompletedExceptionally()) {
        continue;
      }
      PeerConnection conn = c.join();
      if (conn.isActive() && now - conn.lastUsedNanos() <= within.toNanos()) {
        conn.call(FrameType.PING, Unpooled.EMPTY_BUFFER).whenComplete((frame, error) -> {
          if (frame != null) {
            frame.release();
          }
        });
        pinged++;
      }
    }
    return pinged;
  }

  /** After a failed call: a connection that closed leaves the pool (one merely slow to answer stays). */
  private void drop(String address, CompletableFuture<PeerConnection> c) {
    if (c.isDone() && (c.isCompletedExceptionally() || !c.join().isActive())) {
      pool.remove(address, c);
    }
  }

  private static Throwable unwrap(Throwable e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }

  @Override
  public void close() {
    closed = true;
    for (CompletableFuture<PeerConnection> c : pool.values()) {
      c.thenAccept(PeerConnection::close);
    }
    pool.clear();
  }
}
