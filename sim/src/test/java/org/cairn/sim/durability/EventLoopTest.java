package org.cairn.sim.durability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventLoopTest {
  @Test
  void eventsRunInTimeOrder_andThoseDueTogetherInTheOrderTheyWereScheduled() {
    EventLoop loop = new EventLoop();
    List<String> ran = new ArrayList<>();
    loop.schedule(30, () -> ran.add("c@" + loop.now()));
    loop.schedule(10, () -> ran.add("a@" + loop.now()));
    loop.schedule(20, () -> ran.add("b1@" + loop.now()));
    loop.schedule(20, () -> ran.add("b2@" + loop.now()));
    loop.runUntil(100);
    assertThat(ran).containsExactly("a@10", "b1@20", "b2@20", "c@30");
    assertThat(loop.now()).isEqualTo(100);
    assertThat(loop.ran()).isEqualTo(4);
  }

  @Test
  void anEventMayScheduleMore_andRunUntilLeavesThoseDueAtOrAfterTheEnd() {
    EventLoop loop = new EventLoop();
    List<Long> ran = new ArrayList<>();
    Runnable[] tick = new Runnable[1];
    tick[0] = () -> {
      ran.add(loop.now());
      loop.schedule(loop.now() + 10, tick[0]);
    };
    loop.schedule(0, tick[0]);
    loop.runUntil(35);
    assertThat(ran).containsExactly(0L, 10L, 20L, 30L);
    assertThat(loop.pending()).isEqualTo(1);
    loop.runUntil(41);
    assertThat(ran).containsExactly(0L, 10L, 20L, 30L, 40L);
  }

  @Test
  void anEventCannotBeScheduledBeforeTheOneRunning() {
    EventLoop loop = new EventLoop();
    loop.schedule(50, () -> loop.schedule(49, () -> {}));
    assertThatThrownBy(() -> loop.runUntil(100)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("before now");
  }
}
