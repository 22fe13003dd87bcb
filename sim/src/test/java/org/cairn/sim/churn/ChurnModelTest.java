package org.cairn.sim.churn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ChurnModelTest {
  private static final long HOUR = 3_600_000L;
  private static final long DAYS = 3 * 24 * HOUR;

  @Test
  void theShippedParametersAreFalconsBoilerGridFiguresAndLabsOfFifteen() {
    ChurnParameters p = ChurnParameters.published();
    assertThat(p.sessionsPerHourMean()).isEqualTo(1.3130);
    assertThat(p.sessionsPerHourSd()).isEqualTo(0.2172);
    assertThat(p.sessionsPerHourMin()).isEqualTo(1.0298);
    assertThat(p.sessionsPerHourMax()).isEqualTo(2.3931);
    assertThat(p.labSize()).isEqualTo(15);
  }

  @Test
  void theSameSeedGivesTheSameChurn_andAnotherSeedAnother() {
    ChurnModel a = new ChurnModel(ChurnParameters.published(), 500, DAYS, 42);
    ChurnModel b = new ChurnModel(ChurnParameters.published(), 500, DAYS, 42);
    ChurnModel c = new ChurnModel(ChurnParameters.published(), 500, DAYS, 43);
    int differ = 0;
    for (int d = 0; d < 500; d++) {
      for (long t = 0; t < DAYS; t += HOUR / 4) {
        assertThat(a.at(d, t)).isEqualTo(b.at(d, t));
        differ += a.at(d, t) != c.at(d, t) ? 1 : 0;
      }
    }
    assertThat(differ).isPositive();
  }

  @Test
  void ownersAreAtTheirKeyboardsFarMoreByDayThanByNight() {
    ChurnModel m = new ChurnModel(ChurnParameters.published().withoutOutages(), 5000, DAYS, 1);
    double day = activeFraction(m, 24 * HOUR + 11 * HOUR);
    double night = activeFraction(m, 24 * HOUR + 3 * HOUR);
    // 1.313 sessions an hour of 20 minutes on average: about 0.44 of the day busy (M/G/inf occupancy 1 - e^-0.44 ~ 0.35)
    assertThat(day).isBetween(0.25, 0.5);
    assertThat(night).isLessThan(day / 4);
  }

  @Test
  void aLabOutageSilencesEveryDonorOfTheLabTogether() {
    ChurnParameters often = new ChurnParameters(1.3, 0.2, 1.0, 2.4, 20, 8, 18, 0.1, 15, 24, 60); // an outage an hour per lab
    ChurnModel m = new ChurnModel(often, 150, DAYS, 3);
    int outages = 0;
    for (long t = 0; t < DAYS; t += HOUR / 10) {
      for (int lab = 0; lab < 10; lab++) {
        boolean first = m.at(lab * 15, t) == Condition.OUTAGE;
        for (int d = lab * 15; d < lab * 15 + 15; d++) {
          assertThat(m.at(d, t) == Condition.OUTAGE).as("donor %d at %d", d, t).isEqualTo(first);
        }
        outages += first ? 1 : 0;
      }
    }
    assertThat(outages).isPositive();
    assertThat(m.labOf(14)).isZero();
    assertThat(m.labOf(15)).isEqualTo(1);
    assertThat(m.labs(151)).isEqualTo(11);
  }

  @Test
  void withoutOutagesNoDonorIsEverSilent() {
    ChurnModel m = new ChurnModel(ChurnParameters.published().withoutOutages(), 300, DAYS, 5);
    assertThat(m.outages()).isZero();
    for (int d = 0; d < 300; d++) {
      for (long t = 0; t < DAYS; t += HOUR) {
        assertThat(m.at(d, t)).isNotEqualTo(Condition.OUTAGE);
      }
    }
  }

  @Test
  void parametersOutOfRangeAreRefused() {
    assertThatThrownBy(() -> new ChurnParameters(1.3, 0.2, 1.0, 2.4, 20, 18, 8, 0.1, 15, 0.05, 60))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ChurnParameters(1.3, 0.2, 1.0, 2.4, 20, 8, 18, 0.1, 0, 0.05, 60))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ChurnParameters(1.3, 0.2, 1.0, 2.4, 20, 8, 18, 1.5, 15, 0.05, 60))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static double activeFraction(ChurnModel m, long t) {
    int active = 0;
    for (int d = 0; d < 5000; d++) {
      active += m.at(d, t) == Condition.OWNER_ACTIVE ? 1 : 0;
    }
    return active / 5000.0;
  }
}
