package org.cairn.peer.gc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.protocol.FragmentKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Rebuilt pieces' keys reach the tracker's inventory call soon, batched, debounced and bounded, with a fake tracker. */
class RebuiltConfirmationsTest {
  private static final Duration DELAY = Duration.ofMillis(200);
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final Random random = new Random(31);
  /** Each call: when it came, and the keys it listed (hex). */
  private final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();
  private final AtomicInteger failuresLeft = new AtomicInteger();

  private record Call(long nanos, List<String> keys) {}

  private final RebuiltConfirmations.Inventory tracker = keys -> {
    List<String> hex = new ArrayList<>();
    keys.forEach(k -> hex.add(HexFormat.of().formatHex(k)));
    calls.add(new Call(System.nanoTime(), hex));
    if (failuresLeft.getAndDecrement() > 0) {
      throw new IOException("tracker away");
    }
    return List.of(keys.get(0)); // garbage answers are only logged
  };

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  private FragmentKey key() {
    byte[] id = new byte[ChunkId.LENGTH];
    random.nextBytes(id);
    return new FragmentKey(ChunkId.fromBytes(id), random.nextInt(6), random.nextInt());
  }

  private static String hex(FragmentKey k) {
    return HexFormat.of().formatHex(k.toBytes());
  }

  private Call nextCall() throws InterruptedException {
    Call c = calls.poll(10, TimeUnit.SECONDS);
    assertThat(c).as("a call to the tracker").isNotNull();
    return c;
  }

  @Test
  void keysStoredInQuickSuccessionGoToTheTrackerInOneCall() throws Exception {
    RebuiltConfirmations confirm = new RebuiltConfirmations(tracker, scheduler, DELAY, () -> true);
    FragmentKey a = key();
    FragmentKey b = key();
    FragmentKey c = key();
    confirm.stored(List.of(a));
    confirm.stored(List.of(b, c));
    confirm.stored(List.of(a)); // twice: listed once
    assertThat(nextCall().keys()).containsExactly(hex(a), hex(b), hex(c));
    assertThat(confirm.pending()).isZero();
  }

  @Test
  void twoCallsAreAtLeastTheDelayApart() throws Exception {
    RebuiltConfirmations confirm = new RebuiltConfirmations(tracker, scheduler, DELAY, () -> true);
    confirm.stored(List.of(key()));
    Call first = nextCall();
    FragmentKey later = key();
    confirm.stored(List.of(later));
    Call second = nextCall();
    assertThat(second.keys()).containsExactly(hex(later));
    assertThat(second.nanos() - first.nanos()).isGreaterThanOrEqualTo(DELAY.toNanos());
  }

  @Test
  void aFailedCallsKeysGoWithTheNextBatch() throws Exception {
    failuresLeft.set(1);
    RebuiltConfirmations confirm = new RebuiltConfirmations(tracker, scheduler, DELAY, () -> true);
    FragmentKey a = key();
    confirm.stored(List.of(a));
    assertThat(nextCall().keys()).containsExactly(hex(a));
    FragmentKey b = key();
    confirm.stored(List.of(b));
    assertThat(nextCall().keys()).containsExactlyInAnyOrder(hex(a), hex(b));
  }

  @Test
  void keysWaitingAreBoundedAndTheRestLeftToTheRegularInventory() throws Exception {
    RebuiltConfirmations confirm = new RebuiltConfirmations(tracker, scheduler, DELAY, () -> true, 2);
    FragmentKey a = key();
    FragmentKey b = key();
    confirm.stored(List.of(a, b, key(), key(), key()));
    assertThat(confirm.pending()).isEqualTo(2);
    assertThat(nextCall().keys()).containsExactly(hex(a), hex(b));
  }

  @Test
  void nothingIsListedBeforeThePeerHasRegisteredAndTheKeysWaitForTheNextBatch() throws Exception {
    AtomicBoolean registered = new AtomicBoolean();
    CountDownLatch asked = new CountDownLatch(1);
    RebuiltConfirmations confirm = new RebuiltConfirmations(tracker, scheduler, DELAY, () -> {
      asked.countDown();
      return registered.get();
    });
    FragmentKey a = key();
    confirm.stored(List.of(a));
    assertThat(asked.await(10, TimeUnit.SECONDS)).isTrue();
    scheduler.submit(() -> { }).get(10, TimeUnit.SECONDS); // the scheduled pass has finished
    assertThat(calls).isEmpty();
    assertThat(confirm.pending()).isEqualTo(1);
    registered.set(true);
    FragmentKey b = key();
    confirm.stored(List.of(b));
    assertThat(nextCall().keys()).containsExactly(hex(a), hex(b));
  }
}
