package org.cairn.sim.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LatenciesTest {
  @Test
  void quantilesAreNearestRankInMilliseconds() {
    Latencies l = new Latencies();
    for (int i = 100; i >= 1; i--) {
      l.record(i * 1_000_000L); // 1..100 ms, recorded out of order
    }
    assertThat(l.millis(0.5)).isEqualTo(50.0);
    assertThat(l.millis(0.99)).isEqualTo(99.0);
    assertThat(l.millis(1)).isEqualTo(100.0);
    assertThat(l.millis(0)).isEqualTo(1.0);
    assertThat(l.summary()).isEqualTo(new Latencies.Summary(100, 50.0, 99.0, 100.0));
  }

  @Test
  void nothingRecordedIsZero_andResetForgets() {
    Latencies l = new Latencies();
    assertThat(l.millis(0.99)).isZero();
    l.record(5_000_000L);
    l.reset();
    assertThat(l.count()).isZero();
  }

  @Test
  void aQuantileOutsideZeroToOneIsRefused() {
    assertThatThrownBy(() -> new Latencies().millis(1.5)).isInstanceOf(IllegalArgumentException.class);
  }
}
