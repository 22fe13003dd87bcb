package org.cairn.sim.durability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.cairn.sim.churn.ChurnParameters;
import org.junit.jupiter.api.Test;

class DurabilitySettingsTest {
  private static DurabilitySettings with(int jobs, List<String> schemes, List<String> placements) {
    return new DurabilitySettings(200, 30, 7, jobs, 60, 200, 3, 20, 10, 9.5, 10, 60, 15, 7, 24, schemes, placements, 1);
  }

  @Test
  void aBadValueIsAOneLineErrorNamingItsFlag() {
    assertThatThrownBy(() -> with(200, List.of("code:4+2"), List.of("falcon"))).hasMessageContaining("--jobs");
    assertThatThrownBy(() -> with(5, List.of("code:4+x"), List.of("falcon"))).hasMessageContaining("code:4+x");
    assertThatThrownBy(() -> with(5, List.of("code:4+2"), List.of("dedicated:d000001"))).hasMessageContaining("--placements");
    assertThatThrownBy(() -> with(5, List.of(), List.of("falcon"))).hasMessageContaining("--schemes");
  }

  @Test
  void theShippedLongTermFiguresAreAndersonAndFedaksLifetimeAndAThreePercentDiskRate() {
    LongTermParameters p = LongTermParameters.published();
    assertThat(p.lifetimeDaysMean()).isEqualTo(91);
    assertThat(p.diskLossesPerYear()).isEqualTo(0.03);
    assertThat(p.wipesPerDay()).isCloseTo(1 / 91.0 + 0.03 / 365, org.assertj.core.data.Offset.offset(1e-12));
  }

  @Test
  void theWorldIsTheSameForASeed_sortedInTime_andEachDonorIsWipedAndReturnsInTurn() {
    ChurnParameters churn = ChurnParameters.published();
    LongTermParameters shortLived = new LongTermParameters(5, 1, 1, 2);
    WorldEvents a = WorldEvents.draw(churn, shortLived, 100, 20 * DurabilitySettings.DAY, 3);
    WorldEvents b = WorldEvents.draw(churn, shortLived, 100, 20 * DurabilitySettings.DAY, 3);
    assertThat(a.size()).isEqualTo(b.size()).isPositive();
    boolean[] wiped = new boolean[100];
    for (int i = 0; i < a.size(); i++) {
      assertThat(a.time(i)).isEqualTo(b.time(i));
      assertThat(a.subject(i)).isEqualTo(b.subject(i));
      if (i > 0) {
        assertThat(a.time(i)).isGreaterThanOrEqualTo(a.time(i - 1));
      }
      if (a.kind(i) == WorldEvents.WIPE || a.kind(i) == WorldEvents.RETURN) {
        assertThat(wiped[a.subject(i)]).isEqualTo(a.kind(i) == WorldEvents.RETURN);
        wiped[a.subject(i)] = a.kind(i) == WorldEvents.WIPE;
      }
    }
    assertThat(a.departures() + a.diskLosses()).isGreaterThan(100); // ~ 100 donors x 20 days / 5
  }
}
