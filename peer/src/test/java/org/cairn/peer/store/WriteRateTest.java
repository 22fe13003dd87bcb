package org.cairn.peer.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class WriteRateTest {
  private static final long S = 1_000_000_000L;
  private static final long MIB = 1 << 20;

  @Test
  void unknownUntilEnoughBytes_thenBytesPerBusySecond_idleTimeNotCounted() {
    WriteRate w = new WriteRate(600_000);
    w.begin(0);
    w.end(S, MIB / 2);
    assertThat(w.sample(2 * S, 2_000)).isZero();
    w.begin(10 * S);
    w.end(11 * S, 7 * MIB / 2);
    // 4 MiB in 2 busy seconds; the 9 idle seconds between the writes do not count
    assertThat(w.sample(12 * S, 12_000)).isCloseTo(2.0 * MIB, within(1.0));
  }

  @Test
  void concurrentWrites_countTheUnionOfTheirTime() {
    WriteRate w = new WriteRate(600_000);
    w.begin(0);
    w.begin(S / 2);
    w.end(S, 2 * MIB);
    w.end(3 * S / 2, 2 * MIB);
    // busy from 0 to 1.5 s: 4 MiB / 1.5 s (the sum of the two intervals, 2 s, would say 2 MiB/s)
    assertThat(w.sample(2 * S, 2_000)).isCloseTo(4.0 * MIB / 1.5, within(1.0));
  }

  @Test
  void newMeasurementsAreAveragedWithTheOld() {
    WriteRate w = new WriteRate(600_000);
    w.begin(0);
    w.end(S, 8 * MIB);
    assertThat(w.sample(S, 1_000)).isCloseTo(8.0 * MIB, within(1.0));
    w.begin(2 * S);
    w.end(4 * S, 4 * MIB); // the owner started loading the disk: 2 MiB/s
    assertThat(w.sample(4 * S, 4_000)).isCloseTo(5.0 * MIB, within(1.0));
  }

  @Test
  void aWriteInProgressCountsUpToTheSample_andTheRestAfter() {
    WriteRate w = new WriteRate(600_000);
    w.begin(0);
    w.end(S, 2 * MIB);
    w.begin(2 * S);
    assertThat(w.sample(3 * S, 3_000)).isCloseTo(1.0 * MIB, within(1.0)); // 2 MiB over 1 + 1 s
    w.end(4 * S, 2 * MIB);
    assertThat(w.sample(4 * S, 4_000)).isCloseTo((1.0 * MIB + 2.0 * MIB) / 2, within(1.0));
  }

  @Test
  void aFailedWriteAddsTimeButNoBytes() {
    WriteRate w = new WriteRate(600_000);
    w.begin(0);
    w.end(S, 0);
    w.begin(S);
    w.end(2 * S, 2 * MIB);
    assertThat(w.sample(2 * S, 2_000)).isCloseTo(1.0 * MIB, within(1.0));
  }

  @Test
  void forgottenWhenNotRenewedForTheMaximumAge() {
    WriteRate w = new WriteRate(60_000);
    w.begin(0);
    w.end(S, 4 * MIB);
    assertThat(w.sample(S, 1_000)).isPositive();
    assertThat(w.sample(30 * S, 30_000)).isPositive();
    assertThat(w.sample(62 * S, 62_000)).isZero();
  }

  @Test
  void endWithoutBegin_isABug() {
    assertThatThrownBy(() -> new WriteRate(1).end(0, 1)).isInstanceOf(IllegalStateException.class);
  }
}
