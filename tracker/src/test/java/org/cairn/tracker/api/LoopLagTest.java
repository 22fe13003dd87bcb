package org.cairn.tracker.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.DefaultEventLoopGroup;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/** How far behind the server's event loops are, as failure detection reads it. */
class LoopLagTest {
  @Test
  void aLoopHeldUpIsSeenBehindWhileHeld_andForTheWindowAfter_thenCaughtUp() throws Exception {
    DefaultEventLoopGroup loops = new DefaultEventLoopGroup(2);
    try {
      LoopLag lag = new LoopLag(loops, 1_000, System::nanoTime);
      CountDownLatch held = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      loops.next().execute(() -> {
        held.countDown();
        try {
          release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      assertThat(held.await(5, TimeUnit.SECONDS)).isTrue();
      long whileHeld = await(lag, ms -> ms >= 500, "the held loop's probe overdue by 500 ms");
      assertThat(whileHeld).isGreaterThanOrEqualTo(500);
      release.countDown();
      await(lag, ms -> ms >= 500 && ms < 5_000, "the late probe ran: its lateness is remembered");
      long caughtUp = await(lag, ms -> ms < 100, "the window passed with every probe on time");
      assertThat(caughtUp).isLessThan(100);
    } finally {
      loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  @Test
  void idleLoopsAreNotBehind() throws Exception {
    DefaultEventLoopGroup loops = new DefaultEventLoopGroup(2);
    try {
      LoopLag lag = new LoopLag(loops, 1_000, System::nanoTime);
      long[] probes = {0};
      await(lag, ms -> ++probes[0] > 20, "a few reads while the probes run");
      assertThat(lag.millis()).as("lag of idle loops, ms").isLessThan(LoopLag.PERIOD_MILLIS);
    } finally {
      loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  /** Reads the lag until {@code until} holds (every 20 ms, for up to 10 s); the last read. */
  private static long await(LoopLag lag, LongPredicate until, String what) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (true) {
      long ms = lag.millis();
      if (until.test(ms)) {
        return ms;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 10 s: " + what + " (lag " + ms + " ms)");
      }
      Thread.sleep(20);
    }
  }
}
