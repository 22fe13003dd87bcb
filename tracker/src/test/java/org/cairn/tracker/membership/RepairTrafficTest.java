package org.cairn.tracker.membership;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A donor's repair bytes over the last 24 hours, from the totals its heartbeats carry. */
class RepairTrafficTest {
  private static final long HOUR = 3_600_000L;
  private static final long T0 = 1_800_000_000_000L;

  private final PeerTraffic traffic = new PeerTraffic();

  private Long lastDay(String peer) {
    return traffic.of(peer).repairLastDay();
  }

  @Test
  void theBytesRepairedBetweenHeartbeatsAddUp_andAreForgottenAfterADay() {
    traffic.report("p", T0, 0L, 0L, 1000L); // the first total heard counts nothing: it may span days
    assertThat(lastDay("p")).isZero();
    traffic.report("p", T0 + 1000, 0L, 0L, 1500L);
    traffic.report("p", T0 + HOUR, 0L, 0L, 4500L);
    assertThat(lastDay("p")).isEqualTo(3500);
    traffic.report("p", T0 + 25 * HOUR, 0L, 0L, 4600L);
    assertThat(lastDay("p")).as("what was repaired over a day ago is gone").isEqualTo(100);
  }

  @Test
  void aTotalThatWentDown_isAPeerThatRestarted_andCountsFromZero() {
    traffic.report("p", T0, 0L, 0L, 5000L);
    traffic.report("p", T0 + 1000, 0L, 0L, 7000L);
    traffic.report("p", T0 + 2000, 0L, 0L, 300L);
    assertThat(lastDay("p")).isEqualTo(2300);
  }

  @Test
  void aPeerThatDoesNotReportRepairTraffic_showsNone() {
    traffic.report("old", T0, 10L, 20L);
    assertThat(lastDay("old")).isNull();
    assertThat(traffic.of("old").in()).isEqualTo(10);
  }
}
