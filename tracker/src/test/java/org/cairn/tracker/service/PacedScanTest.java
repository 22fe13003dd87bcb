package org.cairn.tracker.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PacedScanTest {
  @Test
  void aScanLongerThanATenthOfTheIntervalStretchesTheWaitToNineTimesItsTime() {
    PacedScan p = new PacedScan(null, () -> { }, 2000);
    assertThat(p.delayAfter(5)).isEqualTo(2000);
    assertThat(p.delayAfter(222)).isEqualTo(2000);
    assertThat(p.delayAfter(300)).isEqualTo(2700);
    assertThat(p.delayAfter(1000)).isEqualTo(9000);
  }

  @Test
  void scansRepeatUntilTheSchedulerStops() throws Exception {
    ScheduledExecutorService sched = Executors.newSingleThreadScheduledExecutor();
    AtomicInteger runs = new AtomicInteger();
    CountDownLatch three = new CountDownLatch(3);
    new PacedScan(sched, () -> {
      runs.incrementAndGet();
      three.countDown();
    }, 100).start();
    assertThat(three.await(10, TimeUnit.SECONDS)).isTrue();
    sched.shutdown();
    assertThat(sched.awaitTermination(10, TimeUnit.SECONDS)).as("a scan after shutdown is not rescheduled").isTrue();
    assertThat(runs.get()).isGreaterThanOrEqualTo(3);
  }

  @Test
  void aScanAskedForSoon_runsAfterItsDelay_evenWhenThePacedOneIsAnHourAway() throws Exception {
    ScheduledExecutorService sched = Executors.newSingleThreadScheduledExecutor();
    try {
      java.util.concurrent.LinkedBlockingQueue<Long> ran = new java.util.concurrent.LinkedBlockingQueue<>();
      PacedScan p = new PacedScan(sched, () -> ran.add(System.nanoTime()), 3_600_000);
      p.start();
      long asked = System.nanoTime();
      p.soon(200);
      Long at = ran.poll(10, TimeUnit.SECONDS);
      assertThat(at).as("the scan asked for").isNotNull();
      assertThat(TimeUnit.NANOSECONDS.toMillis(at - asked)).isGreaterThanOrEqualTo(190);
      assertThat(ran.poll(300, TimeUnit.MILLISECONDS)).as("no second scan without a second request").isNull();
    } finally {
      sched.shutdownNow();
    }
  }

  @Test
  void requestsCoalesce_intoOneScan_plusOneForARequestMadeWhileItRan() throws Exception {
    ScheduledExecutorService sched = Executors.newSingleThreadScheduledExecutor();
    try {
      CountDownLatch inFirst = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      AtomicInteger runs = new AtomicInteger();
      CountDownLatch two = new CountDownLatch(2);
      PacedScan p = new PacedScan(sched, () -> {
        if (runs.incrementAndGet() == 1) {
          inFirst.countDown();
          try {
            release.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        two.countDown();
      }, 3_600_000);
      p.soon(50);
      p.soon(60); // before the first ran: the same scan covers it
      assertThat(inFirst.await(10, TimeUnit.SECONDS)).isTrue();
      p.soon(0); // while the first runs: its peers' grace had not passed when that walk began
      p.soon(0);
      release.countDown();
      assertThat(two.await(10, TimeUnit.SECONDS)).as("a second scan for the request made during the first").isTrue();
      Thread.sleep(300); // nothing to await: a third scan would be a bug, and none may come
      assertThat(runs.get()).isEqualTo(2);
    } finally {
      sched.shutdownNow();
    }
  }
}
