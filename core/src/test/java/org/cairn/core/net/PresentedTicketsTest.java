package org.cairn.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.security.Ticket;
import org.junit.jupiter.api.Test;

class PresentedTicketsTest {
  private static Ticket ticket(int n, long expiresAt) {
    byte[] id = new byte[32];
    id[0] = (byte) n;
    id[1] = (byte) (n >> 8);
    return new Ticket(Ticket.Op.READ, expiresAt, "peer-1", "client-1", List.of(ChunkId.of(id)), new byte[] {(byte) n, (byte) (n >> 8), 1});
  }

  @Test
  void aConnectionPresentsEachTicketOnceAndOnlyTheNewOnesAfterwards() {
    EmbeddedChannel channel = new EmbeddedChannel();
    PeerConnection c = new PeerConnection("127.0.0.1:1", channel, Duration.ofSeconds(5));
    long now = System.currentTimeMillis();
    long future = now + 3_600_000;
    TicketBook book = new TicketBook();
    List<Ticket> first = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      first.add(ticket(i, future));
    }
    book.add(first, now);
    c.present(book);
    assertThat(channel.outboundMessages()).hasSize(300);
    c.present(book);
    assertThat(channel.outboundMessages()).as("nothing new: nothing sent").hasSize(300);
    book.add(List.of(ticket(1, future), ticket(300, future)), now); // one repeated grant, one new
    c.present(book);
    assertThat(channel.outboundMessages()).as("only the new ticket").hasSize(301);
    channel.finishAndReleaseAll();
  }

  @Test
  void expiredTicketsAreDroppedAndNotPresentedToANewConnection() {
    long now = System.currentTimeMillis();
    TicketBook book = new TicketBook();
    List<Ticket> granted = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      granted.add(ticket(i, now + (i % 2 == 0 ? 1_000 : 3_600_000)));
    }
    book.add(granted, now);
    assertThat(book.size()).isEqualTo(100);
    long seenByOld = book.lastSeq();
    book.add(List.of(ticket(500, now + 3_600_000)), now + 2_000); // the even half has expired by then
    assertThat(book.size()).as("the expired half forgotten").isEqualTo(51);
    assertThat(book.after(seenByOld).tickets()).containsExactly(ticket(500, now + 3_600_000));
    assertThat(book.after(seenByOld).upTo()).isEqualTo(book.lastSeq());

    EmbeddedChannel channel = new EmbeddedChannel();
    new PeerConnection("127.0.0.1:1", channel, Duration.ofSeconds(5)).present(book);
    assertThat(channel.outboundMessages()).as("a new connection gets every live ticket").hasSize(51);
    channel.finishAndReleaseAll();
  }
}
