package org.cairn.tracker.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.cairn.core.hash.ChunkId;
import org.cairn.tracker.MutableClock;
import org.cairn.tracker.auth.Refused;
import org.junit.jupiter.api.Test;

class PendingStoresTest {
  private static ChunkId chunk(String s) {
    return ChunkId.of(s.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void afterAStart_everyChunkIsPendingForTheHold_thenOnlyNamedOnes() {
    MutableClock clock = new MutableClock(1_000_000);
    PendingStores pending = new PendingStores(clock, Duration.ofSeconds(60));
    // a store from before the start has not named its chunks again yet: GC must spare them
    assertThat(pending.pending(chunk("from before the restart"))).isTrue();
    pending.add("s1", "heat", "tok", List.of(chunk("named again")));
    clock.advance(Duration.ofSeconds(60));
    assertThat(pending.pending(chunk("from before the restart"))).isFalse();
    assertThat(pending.pending(chunk("named again"))).isTrue();
  }

  @Test
  void withoutAHold_onlyNamedChunksArePending_untilTheSessionExpires() {
    MutableClock clock = new MutableClock(1_000_000);
    PendingStores pending = new PendingStores(clock);
    pending.add("s1", "heat", "tok", List.of(chunk("a")));
    assertThat(pending.pending(chunk("a"))).isTrue();
    assertThat(pending.pending(chunk("b"))).isFalse();
    clock.advance(PendingStores.EXPIRY.plusSeconds(1));
    assertThat(pending.pending(chunk("a"))).isFalse();
  }

  @Test
  void aSessionOpenedByOneClientCannotBeUsedOrClosedByAnother() {
    PendingStores pending = new PendingStores(new MutableClock(1_000_000));
    assertThat(pending.add("s1", "heat", "tok-a", List.of(chunk("a")))).isEqualTo(1);
    assertThatThrownBy(() -> pending.add("s1", "heat", "tok-b", List.of(chunk("b")))).isInstanceOf(Refused.class)
        .hasMessageContaining("belongs to another token");
    assertThatThrownBy(() -> pending.close("s1", "tok-b")).isInstanceOf(Refused.class);
    assertThat(pending.pending(chunk("b"))).as("nothing the refused call named is spared").isFalse();
    assertThat(pending.pending(chunk("a"))).as("the owner's session is still open").isTrue();
    assertThat(pending.close("s1", "tok-a")).isTrue();
    assertThat(pending.close("s1", "tok-a")).as("closing an unknown session is a no-op").isFalse();
  }

  @Test
  void aSessionStaysBoundToTheAppItWasOpenedFor() {
    PendingStores pending = new PendingStores(new MutableClock(1_000_000));
    pending.add("s1", "heat", "tok-a", List.of(chunk("a")));
    assertThatThrownBy(() -> pending.add("s1", "other", "tok-a", List.of())).isInstanceOf(Refused.class)
        .hasMessageContaining("stores app heat");
    assertThatThrownBy(() -> pending.requireOwner("s1", "heat", "tok-b")).isInstanceOf(Refused.class);
    pending.requireOwner("s1", "heat", "tok-a");
    pending.requireOwner("unknown", "heat", "tok-b");
  }

  @Test
  void oneTokenCannotOpenSessionsWithoutEnd() {
    PendingStores pending = new PendingStores(new MutableClock(1_000_000));
    for (int i = 0; i < PendingStores.MAX_SESSIONS_PER_OWNER; i++) {
      pending.add("s" + i, "heat", "tok-a", List.of());
    }
    assertThatThrownBy(() -> pending.add("one-more", "heat", "tok-a", List.of())).isInstanceOf(Refused.class)
        .hasMessageContaining("store sessions open");
    assertThat(pending.add("one-more", "heat", "tok-b", List.of())).as("another token is not held back").isZero();
    pending.close("s0", "tok-a");
    assertThat(pending.add("one-more-a", "heat", "tok-a", List.of())).isZero();
  }
}
