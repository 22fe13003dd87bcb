package org.cairn.peer.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.cairn.core.protocol.FragmentBatch;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.protocol.Refusal;
import org.cairn.core.security.GridToken;
import org.cairn.peer.store.FragmentStore;
import org.cairn.peer.store.FragmentStoreTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataHandlerTest {
  private final GridToken token = GridToken.of(GridToken.generate());
  private final AtomicReference<Refusal> refusal = new AtomicReference<>();
  private final Admission admission = new Admission() {
    @Override
    public Refusal admit(long bytes) {
      return refusal.get();
    }

    @Override
    public void writerStarted() {}

    @Override
    public void writerFinished() {}
  };

  @TempDir
  Path dir;

  private FragmentStore store;

  @BeforeEach
  void open() throws IOException {
    store = FragmentStore.open(dir);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private EmbeddedChannel channel() {
    return new EmbeddedChannel(new DataHandler(token, store, admission, TicketGate.notRequired()));
  }

  private byte[] challenge(EmbeddedChannel ch) {
    Frame c = ch.readOutbound();
    try {
      assertThat(c.type()).isEqualTo(FrameType.CHALLENGE);
      return ByteBufUtil.getBytes(c.payload());
    } finally {
      c.release();
    }
  }

  private EmbeddedChannel authenticated() {
    EmbeddedChannel ch = channel();
    ch.writeInbound(Frame.of(FrameType.AUTH, 1, token.hmac(challenge(ch))));
    Frame ok = ch.readOutbound();
    assertThat(ok.type()).isEqualTo(FrameType.AUTH_OK);
    ok.release();
    return ch;
  }

  private static Frame ask(EmbeddedChannel ch, FrameType type, int id, ByteBuf payload) {
    ch.writeInbound(new Frame(type, id, payload));
    Frame answer = ch.readOutbound();
    assertThat(answer).as("answer to " + type).isNotNull();
    assertThat(answer.requestId()).isEqualTo(id);
    return answer;
  }

  private EmbeddedChannel authenticatedWithTickets(org.cairn.core.security.TicketSigner tracker, String self) {
    TicketGate gate = new TicketGate(() -> org.cairn.core.security.TicketVerifier.of(tracker.peerKey(self)), () -> self,
        java.time.Clock.systemUTC());
    EmbeddedChannel ch = new EmbeddedChannel(new DataHandler(token, store, admission, gate));
    ch.writeInbound(Frame.of(FrameType.AUTH, 1, token.hmac(challenge(ch))));
    Frame ok = ch.readOutbound();
    assertThat(ok.type()).isEqualTo(FrameType.AUTH_OK);
    ok.release();
    return ch;
  }

  private static ByteBuf ticket(org.cairn.core.security.TicketSigner signer, org.cairn.core.security.Ticket.Op op, String peer,
      org.cairn.core.hash.ChunkId chunk, long expiresAt) {
    return Unpooled.wrappedBuffer(signer.sign(new org.cairn.core.security.Ticket(op, expiresAt, peer, "test", List.of(chunk), null)).encode());
  }

  private static String closedWith(EmbeddedChannel ch, FrameType type, ByteBuf payload) {
    Frame answer = ask(ch, type, 50, payload);
    try {
      assertThat(answer.type()).isEqualTo(FrameType.ERROR);
      assertThat(ch.isOpen()).as("the connection is closed after " + type).isFalse();
      return answer.payload().toString(StandardCharsets.UTF_8);
    } finally {
      answer.release();
    }
  }

  @Test
  void withTickets_putGetAndHasNeedTheRightTicket_andEveryOtherTicketIsRefused() throws Exception {
    org.cairn.core.security.TicketSigner tracker = org.cairn.core.security.TicketSigner.generate();
    List<byte[]> fragments = FragmentStoreTest.fragmentsOf(5, 30_000);
    FragmentKey k0 = FragmentStoreTest.keyOf(fragments.get(0));
    long later = System.currentTimeMillis() + 60_000;
    java.util.function.Supplier<ByteBuf> put = () -> {
      ByteBuf b = Unpooled.buffer();
      FragmentBatch.encode(fragments, b);
      return b;
    };
    java.util.function.Supplier<ByteBuf> get = () -> {
      ByteBuf b = Unpooled.buffer();
      k0.encode(b);
      return b;
    };
    // nothing without a ticket
    assertThat(closedWith(authenticatedWithTickets(tracker, "peer-a"), FrameType.PUT, put.get())).contains("no WRITE ticket");
    // a READ ticket does not allow writing
    EmbeddedChannel ch = authenticatedWithTickets(tracker, "peer-a");
    assertThat(ask(ch, FrameType.TICKET, 2, ticket(tracker, org.cairn.core.security.Ticket.Op.READ, "peer-a", k0.chunkId(), later)).type())
        .isEqualTo(FrameType.TICKET_OK);
    assertThat(closedWith(ch, FrameType.PUT, put.get())).contains("no WRITE ticket");
    // another peer's ticket, an expired one and one signed by another key are refused outright
    assertThat(closedWith(authenticatedWithTickets(tracker, "peer-a"), FrameType.TICKET,
        ticket(tracker, org.cairn.core.security.Ticket.Op.WRITE, "peer-b", k0.chunkId(), later))).contains("for peer peer-b");
    assertThat(closedWith(authenticatedWithTickets(tracker, "peer-a"), FrameType.TICKET,
        ticket(tracker, org.cairn.core.security.Ticket.Op.WRITE, "peer-a", k0.chunkId(), System.currentTimeMillis() - 1))).contains("expired");
    assertThat(closedWith(authenticatedWithTickets(tracker, "peer-a"), FrameType.TICKET, ticket(org.cairn.core.security.TicketSigner.generate(),
        org.cairn.core.security.Ticket.Op.WRITE, "peer-a", k0.chunkId(), later))).contains("not signed");
    assertThat(closedWith(authenticatedWithTickets(tracker, "peer-a"), FrameType.TICKET, Unpooled.wrappedBuffer(new byte[] {1, 2, 3})))
        .contains("truncated");
    assertThat(store.fragmentCount()).isZero();
    // the right tickets: the PUT lands, GET and HAS are served; INVENTORY only with a LIST ticket
    ch = authenticatedWithTickets(tracker, "peer-a");
    ask(ch, FrameType.TICKET, 2, ticket(tracker, org.cairn.core.security.Ticket.Op.WRITE, "peer-a", k0.chunkId(), later)).release();
    Frame ok = ask(ch, FrameType.PUT, 3, put.get());
    assertThat(ok.type()).isEqualTo(FrameType.PUT_OK);
    ok.release();
    assertThat(closedWith(ch, FrameType.GET, get.get())).contains("no READ ticket");
    ch = authenticatedWithTickets(tracker, "peer-a");
    ask(ch, FrameType.TICKET, 2, ticket(tracker, org.cairn.core.security.Ticket.Op.READ, "peer-a", k0.chunkId(), later)).release();
    Frame got = ask(ch, FrameType.GET, 3, get.get());
    assertThat(ByteBufUtil.getBytes(got.payload())).isEqualTo(fragments.get(0));
    got.release();
    assertThat(closedWith(ch, FrameType.INVENTORY, Unpooled.EMPTY_BUFFER)).contains("no LIST ticket");
    // IDENTIFY names the peer; a LIST ticket for another peer is refused, one for this peer lists its keys
    ch = authenticatedWithTickets(tracker, "peer-a");
    Frame who = ask(ch, FrameType.IDENTIFY, 2, Unpooled.EMPTY_BUFFER);
    assertThat(who.type()).isEqualTo(FrameType.IDENTITY);
    assertThat(who.payload().toString(StandardCharsets.UTF_8)).isEqualTo("peer-a");
    who.release();
    assertThat(closedWith(authenticatedWithTickets(tracker, "peer-a"), FrameType.TICKET, Unpooled.wrappedBuffer(tracker.sign(
        new org.cairn.core.security.Ticket(org.cairn.core.security.Ticket.Op.LIST, later, "peer-b", "test", List.of(), null)).encode())))
        .contains("for peer peer-b");
    ask(ch, FrameType.TICKET, 3, Unpooled.wrappedBuffer(tracker.sign(
        new org.cairn.core.security.Ticket(org.cairn.core.security.Ticket.Op.LIST, later, "peer-a", "test", List.of(), null)).encode()))
        .release();
    Frame inv = ask(ch, FrameType.INVENTORY, 4, Unpooled.EMPTY_BUFFER);
    assertThat(inv.type()).isEqualTo(FrameType.INVENTORY_RESULT);
    assertThat(inv.payload().readByte()).isZero();
    assertThat(FragmentKey.decodeList(inv.payload())).hasSize(5).contains(k0);
    inv.release();
  }

  @Test
  void rightProof_thenPingIsAnswered() {
    EmbeddedChannel ch = authenticated();
    Frame pong = ask(ch, FrameType.PING, 9, Unpooled.wrappedBuffer("x".getBytes(StandardCharsets.UTF_8)));
    assertThat(pong.type()).isEqualTo(FrameType.PONG);
    assertThat(pong.payload().toString(StandardCharsets.UTF_8)).isEqualTo("x");
    pong.release();
    assertThat(ch.isOpen()).isTrue();
    assertThat(ch.finishAndReleaseAll()).isFalse();
  }

  @Test
  void putThenGetHasInventoryDelete() throws Exception {
    EmbeddedChannel ch = authenticated();
    List<byte[]> fragments = FragmentStoreTest.fragmentsOf(5, 30_000);
    ByteBuf batch = Unpooled.buffer();
    FragmentBatch.encode(fragments, batch);
    Frame ok = ask(ch, FrameType.PUT, 2, batch);
    assertThat(ok.type()).isEqualTo(FrameType.PUT_OK);
    assertThat(ok.payload().getInt(0)).isEqualTo(5);
    ok.release();

    FragmentKey k0 = FragmentStoreTest.keyOf(fragments.get(0));
    ByteBuf key = Unpooled.buffer();
    k0.encode(key);
    Frame got = ask(ch, FrameType.GET, 3, key);
    assertThat(got.type()).isEqualTo(FrameType.FRAGMENT);
    assertThat(ByteBufUtil.getBytes(got.payload())).isEqualTo(fragments.get(0));
    got.release();

    FragmentKey absent = new FragmentKey(k0.chunkId(), 9, k0.tag());
    ByteBuf list = Unpooled.buffer();
    FragmentKey.encodeList(List.of(k0, absent), list);
    Frame has = ask(ch, FrameType.HAS, 4, list);
    assertThat(ByteBufUtil.getBytes(has.payload())).containsExactly(1, 0);
    has.release();

    Frame inv = ask(ch, FrameType.INVENTORY, 5, Unpooled.EMPTY_BUFFER);
    assertThat(inv.payload().readByte()).isZero();
    assertThat(FragmentKey.decodeList(inv.payload())).hasSize(5).contains(k0);
    inv.release();

    ByteBuf del = Unpooled.buffer();
    FragmentKey.encodeList(List.of(k0, absent), del);
    Frame deleted = ask(ch, FrameType.DELETE, 6, del);
    assertThat(deleted.type()).as("nobody deletes a peer's fragments over the data plane").isEqualTo(FrameType.ERROR);
    assertThat(new String(ByteBufUtil.getBytes(deleted.payload()), StandardCharsets.UTF_8)).contains("not accepted");
    deleted.release();
    ByteBuf again = Unpooled.buffer();
    k0.encode(again);
    Frame still = ask(ch, FrameType.GET, 7, again);
    assertThat(still.type()).isEqualTo(FrameType.FRAGMENT);
    still.release();

    Frame probe = ask(ch, FrameType.PROBE, 8, Unpooled.buffer().writeInt(100_000).writeZero(10));
    assertThat(probe.type()).isEqualTo(FrameType.PROBE_RESULT);
    assertThat(probe.payload().readableBytes()).isEqualTo(100_000);
    probe.release();
    assertThat(ch.finishAndReleaseAll()).isFalse();
  }

  @Test
  void put_isRefusedWithTheAdmissionReasonAndStoresNothing() throws Exception {
    EmbeddedChannel ch = authenticated();
    for (Refusal r : new Refusal[] {Refusal.BUSY, Refusal.FULL, Refusal.PAUSED, Refusal.QUOTA}) {
      refusal.set(r);
      ByteBuf batch = Unpooled.buffer();
      FragmentBatch.encode(FragmentStoreTest.fragmentsOf(6, 1000), batch);
      Frame no = ask(ch, FrameType.PUT, 2, batch);
      assertThat(no.type()).isEqualTo(FrameType.REFUSED);
      assertThat(Refusal.describe(no.payload())).startsWith(r.name());
      no.release();
    }
    assertThat(store.fragmentCount()).isZero();
    // gets are still served while refusing puts
    ByteBuf key = Unpooled.buffer();
    FragmentStoreTest.keyOf(FragmentStoreTest.fragmentsOf(6, 1000).get(0)).encode(key);
    Frame nf = ask(ch, FrameType.GET, 3, key);
    assertThat(nf.type()).isEqualTo(FrameType.NOT_FOUND);
    nf.release();
    ch.finishAndReleaseAll();
  }

  @Test
  void put_ofACorruptFragmentIsRefusedAsCorrupt() throws Exception {
    EmbeddedChannel ch = authenticated();
    List<byte[]> fragments = FragmentStoreTest.fragmentsOf(7, 5000);
    fragments.get(1)[fragments.get(1).length - 1] ^= 1;
    ByteBuf batch = Unpooled.buffer();
    FragmentBatch.encode(fragments, batch);
    Frame no = ask(ch, FrameType.PUT, 2, batch);
    assertThat(no.type()).isEqualTo(FrameType.REFUSED);
    assertThat(Refusal.describe(no.payload())).startsWith("CORRUPT").contains("CRC32C");
    no.release();
    assertThat(store.fragmentCount()).isZero();
    ch.finishAndReleaseAll();
  }

  @Test
  void malformedRequestPayload_closesTheConnection() {
    EmbeddedChannel ch = authenticated();
    ch.writeInbound(new Frame(FrameType.PUT, 2, Unpooled.buffer().writeShort(3).writeInt(10)));
    Frame err = ch.readOutbound();
    assertThat(err.type()).isEqualTo(FrameType.ERROR);
    assertThat(err.payload().toString(StandardCharsets.UTF_8)).contains("bad PUT request");
    err.release();
    assertThat(ch.isOpen()).isFalse();
    ch.finishAndReleaseAll();
  }

  @Test
  void wrongProof_closesWithAnError() {
    EmbeddedChannel ch = channel();
    byte[] nonce = challenge(ch);
    ch.writeInbound(Frame.of(FrameType.AUTH, 1, GridToken.of(GridToken.generate()).hmac(nonce)));
    Frame err = ch.readOutbound();
    assertThat(err.type()).isEqualTo(FrameType.ERROR);
    assertThat(err.payload().toString(StandardCharsets.UTF_8)).contains("authentication failed");
    err.release();
    assertThat(ch.isOpen()).isFalse();
    ch.finishAndReleaseAll();
  }

  @Test
  void proofForAnotherChallenge_isRefused() {
    EmbeddedChannel first = channel();
    byte[] firstNonce = challenge(first);
    EmbeddedChannel second = channel();
    challenge(second);
    second.writeInbound(Frame.of(FrameType.AUTH, 1, token.hmac(firstNonce)));
    Frame err = second.readOutbound();
    assertThat(err.type()).isEqualTo(FrameType.ERROR);
    err.release();
    assertThat(second.isOpen()).isFalse();
    first.finishAndReleaseAll();
    second.finishAndReleaseAll();
  }

  @Test
  void requestBeforeAuth_closesWithAnError() {
    EmbeddedChannel ch = channel();
    challenge(ch);
    ch.writeInbound(Frame.of(FrameType.GET, 1, new byte[33]));
    Frame err = ch.readOutbound();
    assertThat(err.type()).isEqualTo(FrameType.ERROR);
    assertThat(err.payload().toString(StandardCharsets.UTF_8)).contains("authenticate first");
    err.release();
    assertThat(ch.isOpen()).isFalse();
    ch.finishAndReleaseAll();
  }
}
