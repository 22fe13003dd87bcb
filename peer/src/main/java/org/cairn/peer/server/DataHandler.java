package org.cairn.peer.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import org.cairn.core.CorruptDataException;
import org.cairn.core.protocol.FragmentBatch;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.protocol.Refusal;
import org.cairn.core.protocol.SoftAck;
import org.cairn.core.security.GridToken;
import org.cairn.peer.store.FragmentStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's business handler, on the connection's event loop ({@link DataServer}: store calls
 * block on fsync, and hold up only the connections that share the loop). On connect it sends a
 * CHALLENGE of 32 random bytes; the client must answer AUTH with HMAC-SHA256(token, challenge) before
 * anything else, within the authentication deadline ({@link ConnectionLimits}); until it has, its
 * decoder takes only small frames, and on AUTH the handler lifts that limit. Bad proof, malformed or
 * oversized frames, a missed deadline and unknown requests close the connection with a logged reason
 * (never the token).
 *
 * Requests are answered one at a time per connection: reading is paused while one is handled, so a
 * client cannot queue unbounded work (backpressure); clients open more connections for parallelism.
 * PUT is admitted or refused as a whole (FULL, BUSY, PAUSED, QUOTA, DISK, CORRUPT). GET, HAS and
 * PUT need a tracker-signed ticket for their chunks presented on the connection first ({@link
 * TicketGate}); a request without one closes the connection. DELETE is never served; INVENTORY only
 * with a LIST ticket (a tracker recovering its catalog) or where tickets are not required. IDENTIFY
 * answers the peer's id.
 */
final class DataHandler extends SimpleChannelInboundHandler<Frame> {
  private static final Logger LOG = LoggerFactory.getLogger(DataHandler.class);
  private static final SecureRandom RANDOM = new SecureRandom();
  static final int INVENTORY_PAGE = 10_000;

  private final java.util.function.Supplier<GridToken> key;
  private final FragmentStore store;
  private final Admission admission;
  private final TicketGate gate;
  private final TicketGate.Grants grants;
  private final java.time.Duration authDeadline;
  private byte[] challenge;
  private boolean authenticated;
  private io.netty.util.concurrent.ScheduledFuture<?> deadline;

  DataHandler(GridToken token, FragmentStore store, Admission admission, TicketGate gate) {
    this(() -> token, store, admission, gate, ConnectionLimits.DEFAULT.authDeadline());
  }

  /**
   * @param key the data-plane key connections must prove; null until the peer has registered
   * @param authDeadline the connection is closed unless it has authenticated this long after it opened
   */
  DataHandler(java.util.function.Supplier<GridToken> key, FragmentStore store, Admission admission, TicketGate gate,
      java.time.Duration authDeadline) {
    this.authDeadline = authDeadline;
    this.key = key;
    this.store = store;
    this.admission = admission;
    this.gate = gate;
    this.grants = gate.newConnection();
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    deadline = ctx.executor().schedule(() -> {
      if (!authenticated && ctx.channel().isActive()) {
        LOG.warn("closing data connection from {}: not authenticated within {} ms", ctx.channel().remoteAddress(),
            authDeadline.toMillis());
        ctx.close();
      }
    }, authDeadline.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    challenge = new byte[32];
    RANDOM.nextBytes(challenge);
    ctx.writeAndFlush(Frame.of(FrameType.CHALLENGE, 0, challenge.clone()));
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
    if (!authenticated) {
      if (frame.type() != FrameType.AUTH) {
        refuse(ctx, frame.requestId(), "authenticate first: expected AUTH, got " + frame.type());
        return;
      }
      GridToken k = key.get();
      if (k == null) {
        refuse(ctx, frame.requestId(), "not ready: this peer has not registered with its tracker yet");
        return;
      }
      if (!k.verifyHmac(challenge, ByteBufUtil.getBytes(frame.payload()))) {
        refuse(ctx, frame.requestId(), "authentication failed: wrong data-plane key");
        return;
      }
      authenticated = true;
      if (deadline != null) {
        deadline.cancel(false);
      }
      org.cairn.core.protocol.FrameDecoder decoder = ctx.pipeline().get(org.cairn.core.protocol.FrameDecoder.class);
      if (decoder != null) {
        decoder.lift(); // requests of full size from now on
      }
      ctx.writeAndFlush(Frame.of(FrameType.AUTH_OK, frame.requestId(), new byte[0]));
      return;
    }
    ctx.channel().config().setAutoRead(false);
    Frame answer;
    try {
      answer = serve(frame);
    } catch (IOException e) {
      LOG.error("request {} failed: {}", frame.type(), e.getMessage());
      answer = Frame.of(FrameType.ERROR, frame.requestId(), ("peer storage error: " + e.getMessage()).getBytes(StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      // malformed payloads of known types (CorruptedFrameException, bad keys): close
      refuse(ctx, frame.requestId(), "bad " + frame.type() + " request: " + e.getMessage());
      return;
    }
    if (answer == null) {
      refuse(ctx, frame.requestId(), "unsupported request " + frame.type());
      return;
    }
    ctx.writeAndFlush(answer).addListener(f -> ctx.channel().config().setAutoRead(true));
  }

  private Frame serve(Frame frame) throws IOException {
    int id = frame.requestId();
    ByteBuf p = frame.payload();
    switch (frame.type()) {
      case PING:
        // the answer takes its own reference to the payload; ours is released by SimpleChannelInboundHandler
        return new Frame(FrameType.PONG, id, p.retainedDuplicate());
      case TICKET: {
        int granted = grants.accept(ByteBufUtil.getBytes(p));
        return new Frame(FrameType.TICKET_OK, id, io.netty.buffer.Unpooled.buffer(4).writeInt(granted));
      }
      case PUT:
      case PUT_SOFT: {
        List<ByteBuf> fragments = FragmentBatch.decodeSlices(p); // slices of the frame: valid until it is released
        grants.requireWrite(fragments);
        return put(id, fragments, frame.type() == FrameType.PUT_SOFT);
      }
      case GET: {
        FragmentKey key = FragmentKey.decode(p);
        grants.requireRead(key.chunkId());
        try {
          byte[] bytes = store.get(key);
          return bytes == null ? Frame.of(FrameType.NOT_FOUND, id, "not held".getBytes(StandardCharsets.UTF_8))
              : served(Frame.of(FrameType.FRAGMENT, id, bytes), bytes.length);
        } catch (CorruptDataException e) {
          LOG.warn("{}", e.getMessage());
          return Frame.of(FrameType.NOT_FOUND, id, ("corrupt: " + e.getMessage()).getBytes(StandardCharsets.UTF_8));
        }
      }
      case HAS: {
        List<FragmentKey> keys = FragmentKey.decodeList(p);
        keys.forEach(k -> grants.requireRead(k.chunkId()));
        byte[] held = new byte[keys.size()];
        for (int i = 0; i < held.length; i++) {
          held[i] = (byte) (store.contains(keys.get(i)) ? 1 : 0);
        }
        return Frame.of(FrameType.HAS_RESULT, id, held);
      }
      case INVENTORY: {
        grants.requireList(); // a peer's holdings are its tracker's business: only a tracker signs LIST tickets
        FragmentKey after = p.isReadable() ? FragmentKey.decode(p) : null;
        List<FragmentKey> page = store.inventory(after, INVENTORY_PAGE + 1);
        boolean more = page.size() > INVENTORY_PAGE;
        List<FragmentKey> keys = more ? page.subList(0, INVENTORY_PAGE) : page;
        ByteBuf out = io.netty.buffer.Unpooled.buffer(5 + keys.size() * FragmentKey.SIZE);
        out.writeByte(more ? 1 : 0);
        FragmentKey.encodeList(keys, out);
        return new Frame(FrameType.INVENTORY_RESULT, id, out);
      }
      case IDENTIFY: {
        String self = gate.self();
        return Frame.of(FrameType.IDENTITY, id, (self == null ? "" : self).getBytes(StandardCharsets.UTF_8));
      }
      case DELETE:
        // a peer's fragments leave it only through its own garbage collection, as the tracker's index
        // decides: nobody on the data plane (another donor with the data-plane key) may delete them
        LOG.warn("refused a DELETE of {} fragments over the data plane", FragmentKey.decodeList(p).size());
        return Frame.of(FrameType.ERROR, id, ("DELETE is not accepted over the data plane: fragments leave a peer only by its own"
            + " garbage collection").getBytes(StandardCharsets.UTF_8));
      case PROBE: {
        if (p.readableBytes() < 4) {
          throw new IllegalArgumentException("probe needs a u32 byte count");
        }
        int n = p.readInt();
        if (n < 0 || n > Frame.MAX_PAYLOAD) {
          throw new IllegalArgumentException("probe asks for " + n + " bytes (at most " + Frame.MAX_PAYLOAD + ")");
        }
        return new Frame(FrameType.PROBE_RESULT, id, io.netty.buffer.Unpooled.buffer(n).writeZero(n));
      }
      default:
        return null;
    }
  }

  private Frame put(int id, List<ByteBuf> fragments, boolean soft) throws IOException {
    long bytes = 0;
    for (ByteBuf f : fragments) {
      bytes += f.readableBytes();
    }
    Refusal refusal = admission.admit(bytes);
    if (refusal != null) {
      return Frame.of(FrameType.REFUSED, id, refusal.encode("not accepting " + bytes + " bytes now"));
    }
    admission.writerStarted();
    try {
      if (soft) {
        long seq = store.putSoft(fragments);
        return new Frame(FrameType.PUT_SOFT_OK, id, new SoftAck(fragments.size(), store.softState().boot(), seq).encode());
      }
      store.putBuffers(fragments);
      gate.rebuiltStored(grants.rebuilt(fragments)); // durable now: the tracker may count them
      return new Frame(FrameType.PUT_OK, id, io.netty.buffer.Unpooled.buffer(4).writeInt(fragments.size()));
    } catch (CorruptDataException e) {
      LOG.warn("refused a PUT with a bad fragment: {}", e.getMessage());
      return Frame.of(FrameType.REFUSED, id, Refusal.CORRUPT.encode(e.getMessage()));
    } finally {
      admission.writerFinished();
    }
  }

  private static void refuse(ChannelHandlerContext ctx, int requestId, String reason) {
    LOG.warn("closing data connection from {}: {}", ctx.channel().remoteAddress(), reason);
    ctx.writeAndFlush(Frame.of(FrameType.ERROR, requestId, reason.getBytes(StandardCharsets.UTF_8)))
        .addListener(ChannelFutureListener.CLOSE);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (deadline != null) {
      deadline.cancel(false);
    }
    super.channelInactive(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.warn("closing data connection from {}: {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }

  private Frame served(Frame f, int bytes) {
    admission.served(bytes);
    return f;
  }
}
