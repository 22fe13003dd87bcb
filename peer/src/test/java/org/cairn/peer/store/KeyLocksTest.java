package org.cairn.peer.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.protocol.FragmentKey;
import org.junit.jupiter.api.Test;

class KeyLocksTest {
  private static FragmentKey key(int n) {
    return new FragmentKey(ChunkId.of(new byte[] {(byte) n}), 0, n);
  }

  @Test
  void aClaimSharingAKey_waitsUntilTheFirstIsReleased_disjointOnesDoNot() throws Exception {
    KeyLocks locks = new KeyLocks();
    KeyLocks.Claim first = locks.claim(List.of(key(1), key(2)));
    try (KeyLocks.Claim disjoint = locks.claim(List.of(key(3)))) {
      assertThat(locks.held()).isEqualTo(3);
    }
    CountDownLatch started = new CountDownLatch(1);
    CompletableFuture<Integer> second = CompletableFuture.supplyAsync(() -> {
      started.countDown();
      try (KeyLocks.Claim c = locks.claim(List.of(key(4), key(2)))) {
        return locks.held();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    // the second claim cannot complete while key 2 is held: it holds nothing meanwhile (key 4 is free)
    assertThat(second).isNotDone();
    first.close();
    assertThat(second.get(10, TimeUnit.SECONDS)).as("keys 4 and 2, once the first claim let go").isEqualTo(2);
    assertThat(locks.held()).isZero();
  }

  @Test
  void aKeyTwiceInOneClaim_isClaimedOnce() throws Exception {
    KeyLocks locks = new KeyLocks();
    try (KeyLocks.Claim c = locks.claim(List.of(key(1), key(1)))) {
      assertThat(locks.held()).isEqualTo(1);
    }
    assertThat(locks.held()).isZero();
  }

  /**
   * Two calls wanting the same keys in opposite orders: each could claim its first key, meet the
   * other's, back off and wait for the other's claim, which never came to be (a deadlock seen in a
   * peer's concurrent PUTs). Claims now take keys in one order and wake their waiters when they back off.
   */
  @Test
  void claimsOfTheSameKeysInOppositeOrders_neverWaitForEachOtherForever() throws Exception {
    KeyLocks locks = new KeyLocks();
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
      for (int t = 0; t < 4; t++) {
        List<FragmentKey> keys = t % 2 == 0 ? List.of(key(1), key(2), key(3)) : List.of(key(3), key(2), key(1));
        done.add(pool.submit(() -> {
          for (int i = 0; i < 20_000; i++) {
            try (KeyLocks.Claim c = locks.claim(keys)) {
              assertThat(c).isNotNull();
            }
          }
          return null;
        }));
      }
      for (java.util.concurrent.Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS); // a deadlock fails here
      }
      assertThat(locks.held()).isZero();
    } finally {
      pool.shutdownNow();
    }
  }
}
