package org.cairn.tracker.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How many peers an enrollment token may register. */
class TokenStoreTest {
  @TempDir
  Path dir;

  private String issue(TokenStore tokens, Role role, Integer uses) throws IOException {
    return tokens.issue(role, null, false, null, uses, null, "test", 1_000L);
  }

  private static String id(String token) {
    return token.substring(TokenStore.PREFIX.length(), TokenStore.PREFIX.length() + 16);
  }

  @Test
  void anEnrollmentTokenRegistersOnePeerByDefault() throws IOException {
    TokenStore tokens = new TokenStore(dir);
    String donor = issue(tokens, Role.DONOR, null);
    assertThat(tokens.load(id(donor)).uses()).isEqualTo(1);
    assertThat(tokens.takeUse(id(donor))).isTrue();
    assertThat(tokens.takeUse(id(donor))).as("a second peer with the same token").isFalse();
  }

  @Test
  void usesWidenIt_andUnlimitedIsAskedForExplicitly() throws IOException {
    TokenStore tokens = new TokenStore(dir);
    String three = issue(tokens, Role.DONOR, 3);
    for (int i = 0; i < 3; i++) {
      assertThat(tokens.takeUse(id(three))).isTrue();
    }
    assertThat(tokens.takeUse(id(three))).isFalse();
    String unlimited = issue(tokens, Role.DONOR, TokenStore.UNLIMITED_USES);
    assertThat(tokens.load(id(unlimited)).uses()).isNull();
    for (int i = 0; i < 10; i++) {
      assertThat(tokens.takeUse(id(unlimited))).isTrue();
    }
  }

  @Test
  void registrationsTakingUsesAtOnceGetExactlyTheUsesTheTokenHas_neverOneTwice() throws Exception {
    TokenStore tokens = new TokenStore(dir);
    String token = issue(tokens, Role.DONOR, 50);
    int takers = 200;
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(32);
    try {
      java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
      java.util.List<java.util.concurrent.Future<Boolean>> takes = new java.util.ArrayList<>();
      for (int i = 0; i < takers; i++) {
        takes.add(pool.submit(() -> {
          start.await();
          return tokens.takeUse(id(token));
        }));
      }
      start.countDown();
      int granted = 0;
      for (java.util.concurrent.Future<Boolean> t : takes) {
        granted += t.get(30, java.util.concurrent.TimeUnit.SECONDS) ? 1 : 0;
      }
      assertThat(granted).isEqualTo(50);
      assertThat(tokens.load(id(token)).uses()).isZero();
      assertThat(new TokenStore(dir).load(id(token)).uses()).as("as the file says").isZero();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aRoundWritesTheUsesOfEveryTakerWaiting_inOneWrite_andGrantsOnlyWhatIsLeft() throws Exception {
    java.util.concurrent.atomic.AtomicInteger left = new java.util.concurrent.atomic.AtomicInteger(3);
    java.util.List<Integer> rounds = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    java.util.concurrent.CountDownLatch firstRoundWriting = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch othersQueued = new java.util.concurrent.CountDownLatch(1);
    UseRounds uses = new UseRounds(wanted -> {
      rounds.add(wanted);
      if (rounds.size() == 1) {
        firstRoundWriting.countDown();
        try {
          assertThat(othersQueued.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
          throw new IOException("interrupted", e);
        }
      }
      int taken = Math.min(wanted, left.get());
      left.addAndGet(-taken);
      return taken;
    });
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(5);
    try {
      java.util.concurrent.Future<Boolean> first = pool.submit(uses::take);
      assertThat(firstRoundWriting.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      java.util.List<java.util.concurrent.Future<Boolean>> later = new java.util.ArrayList<>();
      for (int i = 0; i < 4; i++) {
        later.add(pool.submit(uses::take));
      }
      awaitQueued(uses, 4);
      othersQueued.countDown();
      assertThat(first.get(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      int granted = 0;
      for (java.util.concurrent.Future<Boolean> t : later) {
        granted += t.get(30, java.util.concurrent.TimeUnit.SECONDS) ? 1 : 0;
      }
      assertThat(granted).as("3 uses: the first taker's and two of the four that queued").isEqualTo(2);
      assertThat(rounds).as("the four that queued behind the first round were written as one").containsExactly(1, 4);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aRoundWhoseWriteFailsGrantsNothing_andItsTakersSeeTheFailure() throws Exception {
    java.util.concurrent.atomic.AtomicInteger left = new java.util.concurrent.atomic.AtomicInteger(1);
    java.util.concurrent.atomic.AtomicBoolean failNext = new java.util.concurrent.atomic.AtomicBoolean(true);
    UseRounds uses = new UseRounds(wanted -> {
      if (failNext.getAndSet(false)) {
        throw new IOException("disk full");
      }
      int taken = Math.min(wanted, left.get());
      left.addAndGet(-taken);
      return taken;
    });
    org.assertj.core.api.Assertions.assertThatThrownBy(uses::take).isInstanceOf(IOException.class).hasMessageContaining("disk full");
    assertThat(left.get()).as("nothing spent").isEqualTo(1);
    assertThat(uses.take()).isTrue();
    assertThat(uses.take()).isFalse();
  }

  /** Waits until {@code n} takers are queued behind the round being written (read through the monitor they queue on). */
  private static void awaitQueued(UseRounds uses, int n) throws InterruptedException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (uses.queued() < n) {
      assertThat(System.nanoTime()).as("takers queued in time").isLessThan(deadline);
      Thread.onSpinWait();
      Thread.sleep(1);
    }
  }

  @Test
  void usesApplyOnlyToDonorTokens() {
    assertThat(TokenStore.refusal(Role.DONOR, false, TokenStore.UNLIMITED_USES)).isNull();
    assertThat(TokenStore.refusal(Role.DONOR, false, 0)).contains("--uses");
    assertThat(TokenStore.refusal(Role.DONOR, false, -2)).contains("--uses");
    assertThat(TokenStore.refusal(Role.CLIENT, false, 1)).contains("donor tokens");
    assertThat(TokenStore.refusal(Role.CLIENT, false, null)).isNull();
  }
}
