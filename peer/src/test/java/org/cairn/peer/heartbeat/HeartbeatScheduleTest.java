package org.cairn.peer.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;

/** The schedule on a virtual clock: the tracker's interval replaces the local one, clamped. */
class HeartbeatScheduleTest {
  /** A timer on a virtual clock: tasks run only when the test says, in due order. */
  private static final class ManualTimer implements HeartbeatSchedule.Timer {
    long nowNanos;
    final List<Entry> entries = new ArrayList<>();

    record Entry(Runnable task, long dueNanos, long delayMillis, CompletableFuture<Void> future) {}

    @Override
    public Future<?> schedule(Runnable task, long delayMillis) {
      Entry e = new Entry(task, nowNanos + TimeUnit.MILLISECONDS.toNanos(delayMillis), delayMillis, new CompletableFuture<>());
      entries.add(e);
      return e.future();
    }

    List<Entry> pending() {
      return entries.stream().filter(e -> !e.future().isDone()).toList();
    }

    /** The one pending beat's delay, as it was scheduled. */
    long pendingDelay() {
      assertThat(pending()).as("exactly one beat scheduled").hasSize(1);
      return pending().get(0).delayMillis();
    }

    /** Moves the clock to the next pending beat and runs it. */
    void runNext() {
      Entry e = pending().stream().min(Comparator.comparingLong(Entry::dueNanos)).orElseThrow();
      nowNanos = Math.max(nowNanos, e.dueNanos());
      e.future().complete(null);
      e.task().run();
    }

    void advanceMillis(long ms) {
      nowNanos += TimeUnit.MILLISECONDS.toNanos(ms);
    }
  }

  private final ManualTimer timer = new ManualTimer();
  private final List<Long> beats = new ArrayList<>();
  /** What the next beats do besides being counted (e.g. adopt the tracker's answer). */
  private LongConsumer onBeat = n -> { };
  private HeartbeatSchedule schedule;

  private HeartbeatSchedule schedule(Duration initial) {
    schedule = new HeartbeatSchedule(timer, () -> timer.nowNanos, () -> {
      beats.add(TimeUnit.NANOSECONDS.toMillis(timer.nowNanos));
      onBeat.accept(beats.size());
    }, initial);
    return schedule;
  }

  @Test
  void start_beatsAtOnce_thenAtTheLocalIntervalUntilTheTrackerAnswers() {
    schedule(Duration.ofSeconds(5)).start();
    assertThat(timer.pendingDelay()).isZero();
    timer.runNext();
    timer.runNext();
    assertThat(beats).containsExactly(0L, 5000L);
    assertThat(timer.pendingDelay()).isEqualTo(5000);
  }

  @Test
  void adopt_inABeat_setsTheNextBeatAtTheTrackersInterval() {
    onBeat = n -> schedule.adopt(1000); // the register answer names 1 s
    schedule(Duration.ofSeconds(5)).start();
    timer.runNext();
    timer.runNext();
    timer.runNext();
    assertThat(beats).containsExactly(0L, 1000L, 2000L);
    assertThat(schedule.intervalMillis()).isEqualTo(1000);
  }

  @Test
  void adopt_betweenBeats_movesTheBeatAlreadyScheduled() {
    schedule(Duration.ofSeconds(5)).start();
    timer.runNext(); // t = 0, next due at 5 s
    timer.advanceMillis(200);

    assertThat(schedule.adopt(1000)).isTrue(); // e.g. the answer to an out-of-band beat (pause)

    assertThat(timer.pendingDelay()).as("due 1 s after the last beat started").isEqualTo(800);
    timer.runNext();
    assertThat(beats).containsExactly(0L, 1000L);
  }

  @Test
  void adopt_longerIntervalBetweenBeats_pushesTheBeatBack() {
    schedule(Duration.ofSeconds(1)).start();
    timer.runNext();
    assertThat(schedule.adopt(30_000)).isTrue();
    timer.runNext();
    assertThat(beats).containsExactly(0L, 30_000L);
  }

  @Test
  void beats_keepAFixedRate_whenABeatIsSlow() {
    onBeat = n -> timer.advanceMillis(300); // the tracker takes 300 ms to answer
    schedule(Duration.ofSeconds(1)).start();
    timer.runNext();
    assertThat(timer.pendingDelay()).isEqualTo(700);
    timer.runNext();
    assertThat(beats).containsExactly(0L, 1000L);
  }

  @Test
  void adopt_clampsAbsurdIntervals_andKeepsTheCurrentOneWhenTheTrackerSaysNothing() {
    schedule(Duration.ofSeconds(5));

    assertThat(schedule.adopt(0)).as("0: the tracker did not say").isFalse();
    assertThat(schedule.adopt(-7)).isFalse();
    assertThat(schedule.intervalMillis()).isEqualTo(5000);

    assertThat(schedule.adopt(1)).isTrue();
    assertThat(schedule.intervalMillis()).isEqualTo(HeartbeatSchedule.MIN_MILLIS);
    assertThat(schedule.adopt(Long.MAX_VALUE)).isTrue();
    assertThat(schedule.intervalMillis()).isEqualTo(HeartbeatSchedule.MAX_MILLIS);
    assertThat(schedule.adopt(HeartbeatSchedule.MAX_MILLIS + 1)).as("clamps to the interval in force").isFalse();
  }

  @Test
  void adopt_theSameInterval_changesNothing() {
    schedule(Duration.ofSeconds(5)).start();
    timer.runNext();
    int scheduled = timer.entries.size();

    assertThat(schedule.adopt(5000)).isFalse();

    assertThat(timer.entries).as("nothing rescheduled").hasSize(scheduled);
  }

  @Test
  void aBeatThatThrows_doesNotStopTheSchedule() {
    onBeat = n -> {
      throw new IllegalStateException("boom " + n);
    };
    schedule(Duration.ofMillis(100)).start();
    timer.runNext();
    timer.runNext();
    assertThat(beats).containsExactly(0L, 100L);
    assertThat(timer.pending()).hasSize(1);
  }

  @Test
  void stop_cancelsTheNextBeat_andAdoptingAfterwardsSchedulesNothing() {
    schedule(Duration.ofSeconds(1)).start();
    timer.runNext();
    schedule.stop();
    assertThat(timer.pending()).isEmpty();
    schedule.adopt(200);
    assertThat(timer.pending()).isEmpty();
  }

  @Test
  void aLocalIntervalBelowTheMinimum_isRefused() {
    assertThatThrownBy(() -> schedule(Duration.ofMillis(50))).hasMessageContaining("at least 100ms, was 50ms");
  }
}
