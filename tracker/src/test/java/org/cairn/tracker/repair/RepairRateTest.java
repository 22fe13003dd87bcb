package org.cairn.tracker.repair;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RepairRateTest {
  @Test
  void rateOverTheLastWindow_andTheEtaOfWhatIsLeft() {
    RepairRate r = new RepairRate(60_000);
    assertThat(r.bytesPerSecond(0, 0)).isZero();
    r.sample(0, 0);
    assertThat(r.etaSeconds(1000, 500, 0)).as("less than a second of samples").isNull();
    for (long t = 1000; t <= 30_000; t += 1000) {
      r.sample(t, t * 1000); // 1 MB/s
    }
    assertThat(r.bytesPerSecond(30_000, 30_000_000)).isEqualTo(1_000_000);
    assertThat(r.etaSeconds(90_000_000, 30_000, 30_000_000)).isEqualTo(90);
    assertThat(r.etaSeconds(0, 30_000, 30_000_000)).as("nothing left").isNull();
    // repair stops: a minute later the window holds no progress and there is no ETA
    for (long t = 31_000; t <= 100_000; t += 1000) {
      r.sample(t, 30_000_000);
    }
    assertThat(r.bytesPerSecond(100_000, 30_000_000)).isZero();
    assertThat(r.etaSeconds(90_000_000, 100_000, 30_000_000)).isNull();
    // it resumes at 2 MB/s: the estimate follows within the window
    for (long t = 101_000; t <= 200_000; t += 1000) {
      r.sample(t, 30_000_000 + (t - 100_000) * 2000);
    }
    assertThat(r.bytesPerSecond(200_000, 230_000_000)).isEqualTo(2_000_000, org.assertj.core.data.Offset.offset(1.0));
  }
}
