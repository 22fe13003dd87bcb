package org.cairn.tracker.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.cairn.core.hash.ChunkId;
import org.cairn.tracker.MutableClock;
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
    pending.add("s1", List.of(chunk("named again")));
    clock.advance(Duration.ofSeconds(60));
    assertThat(pending.pending(chunk("from before the restart"))).isFalse();
    assertThat(pending.pending(chunk("named again"))).isTrue();
  }

  @Test
  void withoutAHold_onlyNamedChunksArePending_untilTheSessionExpires() {
    MutableClock clock = new MutableClock(1_000_000);
    PendingStores pending = new PendingStores(clock);
    pending.add("s1", List.of(chunk("a")));
    assertThat(pending.pending(chunk("a"))).isTrue();
    assertThat(pending.pending(chunk("b"))).isFalse();
    clock.advance(PendingStores.EXPIRY.plusSeconds(1));
    assertThat(pending.pending(chunk("a"))).isFalse();
  }
}
