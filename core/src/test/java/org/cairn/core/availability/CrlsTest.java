package org.cairn.core.availability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.cairn.core.availability.HostState.BUSY;
import static org.cairn.core.availability.HostState.DOWN;
import static org.cairn.core.availability.HostState.FULL;
import static org.cairn.core.availability.HostState.LOADED;
import static org.cairn.core.availability.HostState.RUNNING;

import org.junit.jupiter.api.Test;

/**
 * Hand-worked history of 8 slots (slot 100..107):
 *
 * <pre>
 * slot      0 1 2 3 4 5 6 7
 * CH        U U D D U U U D      P(CH down) = 3/8, UP->DOWN transitions at 1->2 and 6->7
 * SH1       R L R B R R L D      at CH-down slots {2,3,7}: R, B, D -> CR = 2/3 < gamma -> CRLS = 0.667
 * SH2       R R R L L R R B      at CH-down slots: R, L, B -> CR = 1 >= gamma
 *                                 at CH-up slots {0,1,4,5,6}: R,R,L,R,R -> P(R|up) = 4/5, P(L|up) = 1/5
 *                                 LI = 0.75 * 0.8 + 0.25 * 0.2 = 0.65 -> CRLS = 0.95 + 0.65 = 1.60
 * MTTF(CH) = 5 UP slots / 2 failures = 2.5 slots
 * </pre>
 */
class CrlsTest {
  private static final long FROM = 100;
  private static final long TO = 108;
  private final StateSeries ch = StateSeries.compute(FROM, "UUDDUUUD");
  private final StateSeries sh1 = StateSeries.of(FROM, RUNNING, LOADED, RUNNING, BUSY, RUNNING, RUNNING, LOADED, DOWN);
  private final StateSeries sh2 = StateSeries.of(FROM, RUNNING, RUNNING, RUNNING, LOADED, LOADED, RUNNING, RUNNING, BUSY);
  private final Crls crls = Crls.defaults();

  @Test
  void handWorkedExample() {
    assertThat(Availability.computeProbability(ch, StateSeries.COMPUTE_DOWN, FROM, TO)).isEqualTo(3.0 / 8);
    assertThat(crls.correlatedReliability(sh1, ch, FROM, TO)).isCloseTo(2.0 / 3, within(1e-12));
    assertThat(crls.score(sh1, ch, FROM, TO)).isCloseTo(2.0 / 3, within(1e-12));
    assertThat(crls.correlatedReliability(sh2, ch, FROM, TO)).isEqualTo(1.0);
    assertThat(crls.loadIndicator(sh2, ch, FROM, TO)).isCloseTo(0.65, within(1e-12));
    assertThat(crls.score(sh2, ch, FROM, TO)).isCloseTo(1.60, within(1e-12));
    assertThat(Availability.mttfSlots(ch, FROM, TO)).isEqualTo(2.5);
  }

  @Test
  void stateProbabilities_countFullSeparatelyButConditionalsTreatItAsRunning() {
    StateSeries sh = StateSeries.of(FROM, FULL, FULL, RUNNING, RUNNING, LOADED, RUNNING, RUNNING, RUNNING);
    double[] p = Availability.stateProbabilities(sh, FROM, TO);
    assertThat(p[FULL.code()]).isEqualTo(2.0 / 8);
    assertThat(p[RUNNING.code()]).isEqualTo(5.0 / 8);
    // CH up at slots 0,1,4,5,6: FULL, FULL, LOADED, RUNNING, RUNNING -> P(RUNNING-or-FULL | up) = 4/5
    assertThat(Availability.conditional(sh, ch, StateSeries.UP, FROM, TO, RUNNING)).isEqualTo(4.0 / 5);
  }

  @Test
  void noComputeFailureObserved_givesGammaPlusLoad() {
    StateSeries alwaysUp = StateSeries.compute(FROM, "UUUUUUUU");
    // never DOWN: CR = gamma by definition, so CRLS = gamma + LI
    double li = 0.75 * (5.0 / 8) + 0.25 * (2.0 / 8); // SH2: RUNNING in 5 of 8 slots, LOADED in 2
    assertThat(crls.score(sh1, alwaysUp, FROM, TO)).isCloseTo(0.95 + 0.75 * (4.0 / 8) + 0.25 * (2.0 / 8), within(1e-12));
    assertThat(crls.score(sh2, alwaysUp, FROM, TO)).isCloseTo(0.95 + li, within(1e-12));
    // no failure: the censored MTTF is the observed up time
    assertThat(Availability.mttfSlots(alwaysUp, FROM, TO)).isEqualTo(8);
  }

  @Test
  void unknownSlotsAreLeftOut() {
    StateSeries gappy = StateSeries.compute(FROM, "UU..UUUD");
    // CH down only at slot 7, where SH1 is DOWN -> CR = 0
    assertThat(crls.correlatedReliability(sh1, gappy, FROM, TO)).isZero();
    assertThat(Availability.computeProbability(gappy, StateSeries.COMPUTE_DOWN, FROM, TO)).isEqualTo(1.0 / 6);
    // a storage host never observed: no evidence either way, treated like "CH never down"
    StateSeries unseen = new StateSeries(FROM, new byte[] {-1, -1, -1, -1, -1, -1, -1, -1});
    assertThat(crls.score(unseen, ch, FROM, TO)).isEqualTo(0.95);
    // outside the series everything is unknown
    assertThat(Availability.stateProbabilities(sh1, 0, 50)).containsOnly(0.0);
  }

  @Test
  void parameters_areValidated() {
    assertThatThrownBy(() -> new Crls(1.5, 0.75)).hasMessageContaining("gamma must be in (0, 1], was 1.5");
    assertThatThrownBy(() -> new Crls(0.95, -1)).hasMessageContaining("alpha must be in [0, 1], was -1");
    assertThatThrownBy(() -> HostState.parse("sleepy")).hasMessageContaining("'sleepy'");
    assertThat(HostState.parse("loaded")).isEqualTo(LOADED);
    for (HostState s : HostState.values()) {
      assertThat(HostState.fromCode(s.code())).isEqualTo(s);
    }
  }
}
