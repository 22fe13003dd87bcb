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
  void aLongLivedConnectionForgetsExpiredTicketsButNotLiveOnes() {
    EmbeddedChannel channel = new EmbeddedChannel();
    PeerConnection c = new PeerConnection("127.0.0.1:1", channel, Duration.ofSeconds(5));
    long past = System.currentTimeMillis() - 1000;
    long future = System.currentTimeMillis() + 3_600_000;
    List<Ticket> old = new ArrayList<>();
    for (int i = 0; i < PeerConnection.FORGET_FROM + 50; i++) {
      old.add(ticket(i, i % 2 == 0 ? past : future));
    }
    c.present(old);
    assertThat(c.rememberedTickets()).isEqualTo(PeerConnection.FORGET_FROM + 50);
    int sent = channel.outboundMessages().size();
    c.present(List.of(ticket(1, future))); // remembered and live: not sent again
    assertThat(channel.outboundMessages().size()).isEqualTo(sent);
    assertThat(c.rememberedTickets()).as("the expired half forgotten").isEqualTo((PeerConnection.FORGET_FROM + 50) / 2);
    channel.finishAndReleaseAll();
  }
}
