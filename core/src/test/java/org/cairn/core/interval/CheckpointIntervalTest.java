package org.cairn.core.interval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Values worked by hand (and checked in Python). */
class CheckpointIntervalTest {
  @Test
  void youngIsTheSquareRootOfTwiceCostTimesMean() {
    // sqrt(2 * 10 * 14400) = sqrt(288000)
    assertThat(CheckpointInterval.young(10, 14_400)).isCloseTo(536.6563, within(1e-4));
  }

  @Test
  void dalyAddsTheHigherOrderTermsAndSubtractsTheCost() {
    // C = 60, M = 3600: r = C/2M = 1/120; sqrt(432000) = 657.26707; x (1 + sqrt(r)/3 + r/9) = 677.87565; - 60
    assertThat(CheckpointInterval.daly(60, 3600)).isCloseTo(617.8756, within(1e-4));
  }

  @Test
  void dalyIsTheMeanItselfOnceTheCostReachesTwiceIt() {
    assertThat(CheckpointInterval.daly(100, 40)).isEqualTo(40.0);
    assertThat(CheckpointInterval.daly(80, 40)).isEqualTo(40.0);
  }

  @Test
  void youngIsChosenWhileTheCostIsSmallAndDalyOnceItIsNot() {
    CheckpointInterval.Choice small = CheckpointInterval.optimal(10, 14_400);
    assertThat(small.formula()).isEqualTo("young");
    assertThat(small.seconds()).isEqualTo(small.young());
    assertThat(small.daly()).isCloseTo(530.0104, within(1e-4));
    CheckpointInterval.Choice large = CheckpointInterval.optimal(60, 3600);
    assertThat(large.formula()).isEqualTo("daly");
    assertThat(large.seconds()).isCloseTo(617.8756, within(1e-4));
  }

  @Test
  void aCostOrMeanThatIsNotPositiveIsRefused() {
    assertThatThrownBy(() -> CheckpointInterval.young(0, 10)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CheckpointInterval.daly(1, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CheckpointInterval.optimal(1, Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class);
  }
}
