package org.cairn.core.availability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * Hand-worked: one-minute slots "UUDDUUUD" are 5 UP minutes (300 s) with 2 interruptions (1->2, 6->7), so the mean
 * time to interruption is 150 s, and its 90% interval is 600 / chi2(0.95; 6) = 600 / 12.5916 = 47.65 s to
 * 600 / chi2(0.05; 4) = 600 / 0.71072 = 844.21 s (chi-square quantiles from tables / scipy).
 */
class UptimeTest {
  @Test
  void aHandWorkedHistoryGivesItsMeanAndInterval() {
    Uptime u = Uptime.of(StateSeries.compute(100, "UUDDUUUD"), 100, 108, 60_000, 14_400);
    assertThat(u.upSeconds()).isEqualTo(300.0);
    assertThat(u.interruptions()).isEqualTo(2);
    assertThat(u.mtbfSeconds()).isEqualTo(150.0);
    assertThat(u.lowSeconds()).isCloseTo(47.6509, within(1e-3));
    assertThat(u.highSeconds()).isCloseTo(844.2107, within(1e-3));
    assertThat(u.confidence()).isEqualTo("low");
  }

  @Test
  void unknownSlotsNeitherCountAsUpNorBreakARun() {
    // U . U D: the unknown slot is left out, the run U..U then D is one interruption
    Uptime u = Uptime.of(StateSeries.compute(0, "U.UD..DU"), 0, 8, 1000, 100);
    assertThat(u.upSeconds()).isEqualTo(3.0);
    assertThat(u.interruptions()).isEqualTo(1);
    assertThat(u.mtbfSeconds()).isEqualTo(3.0);
  }

  @Test
  void withoutAnInterruptionTheEstimateIsTheLongerOfUpTimeAndTheFallback() {
    Uptime shortRun = Uptime.of(StateSeries.compute(0, "UUUUU"), 0, 5, 60_000, 14_400);
    assertThat(shortRun.mtbfSeconds()).isEqualTo(14_400.0);
    assertThat(shortRun.highSeconds()).isNull();
    // a censored lower bound: 2T / chi2(0.95; 2) = 600 / 5.99146
    assertThat(shortRun.lowSeconds()).isCloseTo(100.1425, within(1e-3));
    assertThat(shortRun.confidence()).isEqualTo("low");
    Uptime longRun = Uptime.of(86_400 * 3, 0, 14_400);
    assertThat(longRun.mtbfSeconds()).isEqualTo(259_200.0);
    assertThat(Uptime.mean(86_400 * 3, 0, 14_400)).isEqualTo(259_200.0);
    assertThat(Uptime.mean(300, 2, 14_400)).isEqualTo(150.0);
    assertThat(Uptime.mean(0, 0, 14_400)).isEqualTo(14_400.0);
  }

  @Test
  void noHistoryAtAllGivesTheFallbackWithNoConfidence() {
    Uptime u = Uptime.of(StateSeries.compute(0, "...DD"), 0, 5, 60_000, 14_400);
    assertThat(u.mtbfSeconds()).isEqualTo(14_400.0);
    assertThat(u.confidence()).isEqualTo("none");
    assertThat(u.lowSeconds()).isNull();
  }

  @Test
  void confidenceGrowsWithTheInterruptionsSeen() {
    assertThat(Uptime.of(1000, 3, 1).confidence()).isEqualTo("medium");
    Uptime ten = Uptime.of(1000, 10, 1);
    assertThat(ten.confidence()).isEqualTo("high");
    // 2000 / chi2(0.95; 22) = 2000 / 33.92444, 2000 / chi2(0.05; 20) = 2000 / 10.85081
    assertThat(ten.lowSeconds()).isCloseTo(58.9544, within(1e-3));
    assertThat(ten.highSeconds()).isCloseTo(184.3180, within(1e-3));
  }

  @Test
  void chiSquareQuantilesMatchTheTables() {
    assertThat(Uptime.ChiSquare.quantile(0.95, 2)).isCloseTo(5.991465, within(1e-5));
    assertThat(Uptime.ChiSquare.quantile(0.05, 2)).isCloseTo(0.1025866, within(1e-6));
    assertThat(Uptime.ChiSquare.quantile(0.95, 2002)).isCloseTo(2107.2062, within(1e-3));
    assertThatThrownBy(() -> Uptime.ChiSquare.quantile(0.5, 3)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void negativeInputIsRefused() {
    assertThatThrownBy(() -> Uptime.of(-1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Uptime.of(1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
