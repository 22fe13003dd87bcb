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
}
