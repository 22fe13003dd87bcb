package org.cairn.peer.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.cairn.core.protocol.FragmentBatch;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.protocol.Refusal;
import org.cairn.core.security.GridToken;
import org.cairn.core.security.Ticket;
import org.cairn.core.security.TicketSigner;
import org.cairn.core.security.TicketVerifier;
import org.cairn.peer.store.FragmentStore;
import org.cairn.peer.store.FragmentStoreTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which PUTs the data handler tells as rebuilt pieces: durable ones under a WRITE ticket not issued to a client (a repair executor's). */
class RebuiltPiecesTest {
  private static final String SELF = "peer-a";
  private final GridToken token = GridToken.of(GridToken.generate());
  private final TicketSigner tracker = TicketSigner.generate();
  private final List<FragmentKey> told = new CopyOnWriteArrayList<>();
  private final Admission admission = new Admission() {
    @Override
    public Refusal admit(long bytes) {
      return null;
    }

    @Override
    public void writerStarted() {}

    @Override
    public void writerFinished() {}
  };

  @TempDir
  Path dir;

  private FragmentStore store;
  private List<byte[]> fragments;
  private List<FragmentKey> keys;

  @BeforeEach
  void open() throws IOException {
    store = FragmentStore.open(dir);
    fragments = FragmentStoreTest.fragmentsOf(23, 20_000);
    keys = new ArrayList<>();
    for (byte[] f : fragments) {
      keys.add(FragmentStoreTest.keyOf(f));
    }
  }

  @AfterEach
  void close() {
    store.close();
  }

  private EmbeddedChannel connectionWithWriteTicketFor(String requester) {
    TicketGate gate = new TicketGate(() -> TicketVerifier.of(tracker.peerKey(SELF)), () -> SELF, Clock.systemUTC(), told::addAll);
    EmbeddedChannel ch = new EmbeddedChannel(new DataHandler(token, store, admission, gate));
    Frame challenge = ch.readOutbound();
    byte[] c = ByteBufUtil.getBytes(challenge.payload());
    challenge.release();
    expect(ask(ch, FrameType.AUTH, 1, Unpooled.wrappedBuffer(token.hmac(c))), FrameType.AUTH_OK);
    Ticket t = new Ticket(Ticket.Op.WRITE, System.currentTimeMillis() + 60_000, SELF, requester, List.of(keys.get(0).chunkId()), null);
    expect(ask(ch, FrameType.TICKET, 2, Unpooled.wrappedBuffer(tracker.sign(t).encode())), FrameType.TICKET_OK);
    return ch;
  }

  private ByteBuf batch() {
    ByteBuf b = Unpooled.buffer();
    FragmentBatch.encode(fragments.subList(1, 3), b);
    return b;
  }

  private static Frame ask(EmbeddedChannel ch, FrameType type, int id, ByteBuf payload) {
    ch.writeInbound(new Frame(type, id, payload));
    Frame answer = ch.readOutbound();
    assertThat(answer).as("answer to " + type).isNotNull();
    return answer;
  }

  private static void expect(Frame answer, FrameType type) {
    try {
      assertThat(answer.type()).isEqualTo(type);
    } finally {
      answer.release();
    }
  }

  @Test
  void piecesARepairExecutorPutAreToldWithTheirKeysOnceStored() throws IOException {
    EmbeddedChannel ch = connectionWithWriteTicketFor("peer:tok-7");
    expect(ask(ch, FrameType.PUT, 3, batch()), FrameType.PUT_OK);
    assertThat(told).containsExactly(keys.get(1), keys.get(2));
    assertThat(store.contains(keys.get(1))).isTrue();
  }

  @Test
  void piecesPutUnderTheOperatorsTokenAreTold_aPeerMayRunWithIt() {
    EmbeddedChannel ch = connectionWithWriteTicketFor("admin:operator");
    expect(ask(ch, FrameType.PUT, 3, batch()), FrameType.PUT_OK);
    assertThat(told).containsExactly(keys.get(1), keys.get(2));
  }

  @Test
  void piecesAClientStoresAreNotTold() throws IOException {
    EmbeddedChannel ch = connectionWithWriteTicketFor("client:tok-9");
    expect(ask(ch, FrameType.PUT, 3, batch()), FrameType.PUT_OK);
    assertThat(store.contains(keys.get(1))).isTrue();
    assertThat(told).isEmpty();
  }

  @Test
  void aSoftPutIsNotToldBecauseItIsNotDurableYet() {
    EmbeddedChannel ch = connectionWithWriteTicketFor("peer:tok-7");
    expect(ask(ch, FrameType.PUT_SOFT, 3, batch()), FrameType.PUT_SOFT_OK);
    assertThat(told).isEmpty();
  }

  @Test
  void aRefusedPutIsNotTold() {
    EmbeddedChannel ch = connectionWithWriteTicketFor("peer:tok-7");
    byte[] bad = fragments.get(1).clone();
    bad[bad.length - 1] ^= 1; // payload CRC no longer matches
    ByteBuf b = Unpooled.buffer();
    FragmentBatch.encode(List.of(bad), b);
    expect(ask(ch, FrameType.PUT, 3, b), FrameType.REFUSED);
    assertThat(told).isEmpty();
  }
}
