package org.cairn.core.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.cairn.core.hash.ChunkId;
import org.junit.jupiter.api.Test;

class TicketTest {
  private static final TicketSigner TRACKER = TicketSigner.generate();
  private static final TicketVerifier PEER = TicketVerifier.of(TRACKER.peerKey("peer-a"));
  private static final long NOW = 1_800_000_000_000L;

  private static List<ChunkId> chunks(int n) {
    List<ChunkId> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(ChunkId.of(("chunk " + i).getBytes(StandardCharsets.UTF_8)));
    }
    return out;
  }

  private static Ticket ticket(String peer, long expires) {
    return TRACKER.sign(new Ticket(Ticket.Op.READ, expires, peer, "client:heat", chunks(3), null));
  }

  @Test
  void aSignedTicket_roundTripsAndChecks() {
    Ticket t = ticket("peer-a", NOW + 60_000);
    Ticket back = Ticket.fromBase64(t.toBase64());
    assertThat(back).isEqualTo(t);
    assertThat(back.chunks()).isEqualTo(chunks(3));
    assertThat(PEER.check(back, "peer-a", NOW).op()).isEqualTo(Ticket.Op.READ);
  }

  @Test
  void anotherPeersTicket_anExpiredOne_andOneSignedByAnotherKey_areRefused() {
    assertThatThrownBy(() -> PEER.check(ticket("peer-b", NOW + 60_000), "peer-a", NOW)).isInstanceOf(SecurityException.class)
        .hasMessageContaining("for peer peer-b");
    assertThatThrownBy(() -> PEER.check(ticket("peer-a", NOW - 1), "peer-a", NOW)).isInstanceOf(SecurityException.class)
        .hasMessageContaining("expired");
    Ticket forged = TicketSigner.generate().sign(new Ticket(Ticket.Op.WRITE, NOW + 60_000, "peer-a", "donor:x", chunks(1), null));
    assertThatThrownBy(() -> PEER.check(forged, "peer-a", NOW)).isInstanceOf(SecurityException.class)
        .hasMessageContaining("not signed");
  }

  @Test
  void aTicketWithAnyFieldChanged_failsItsSignature() {
    Ticket t = ticket("peer-a", NOW + 60_000);
    List<Ticket> changed = List.of(
        new Ticket(Ticket.Op.WRITE, t.expiresAt(), t.peer(), t.requester(), t.chunks(), t.signature()),
        new Ticket(t.op(), t.expiresAt() + 1, t.peer(), t.requester(), t.chunks(), t.signature()),
        new Ticket(t.op(), t.expiresAt(), t.peer(), "client:other", t.chunks(), t.signature()),
        new Ticket(t.op(), t.expiresAt(), t.peer(), t.requester(), chunks(4), t.signature()));
    for (Ticket c : changed) {
      assertThatThrownBy(() -> PEER.check(c, "peer-a", NOW)).as(c.toString()).isInstanceOf(SecurityException.class);
    }
  }

  /** Fuzz: mutated and random bytes never parse into a ticket that checks, and fail only with IllegalArgumentException. */
  @Test
  void mutatedAndRandomBytes_neverYieldAValidTicket() {
    byte[] good = ticket("peer-a", NOW + 60_000).encode();
    Random random = new Random(18);
    int parsed = 0;
    for (int round = 0; round < 20_000; round++) {
      byte[] b;
      switch (round % 4) {
        case 0 -> {
          b = good.clone();
          b[random.nextInt(b.length)] ^= (byte) (1 + random.nextInt(255));
        }
        case 1 -> b = Arrays.copyOf(good, random.nextInt(good.length));
        case 2 -> {
          b = Arrays.copyOf(good, good.length + 1 + random.nextInt(8));
          random.nextBytes(b);
          System.arraycopy(good, 0, b, 0, 4); // a plausible header, random rest
        }
        default -> {
          b = new byte[random.nextInt(300)];
          random.nextBytes(b);
        }
      }
      Ticket t;
      try {
        t = Ticket.decode(b);
      } catch (IllegalArgumentException e) {
        continue;
      }
      parsed++;
      Ticket parsedTicket = t;
      assertThatThrownBy(() -> PEER.check(parsedTicket, "peer-a", NOW)).isInstanceOf(SecurityException.class);
    }
    assertThat(parsed).as("some mutations (in ids, time or signature) still parse and must then fail the check").isPositive();
  }

  @Test
  void base64Garbage_isAClearError() {
    assertThatThrownBy(() -> Ticket.fromBase64("not a ticket!")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("not a ticket");
    assertThatThrownBy(() -> Ticket.fromBase64(null)).isInstanceOf(IllegalArgumentException.class);
  }
}
