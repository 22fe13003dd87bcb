package org.cairn.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class IntervalSimulationTest {
  @Test
  void theSameSeedGivesTheSameTable() {
    assertThat(IntervalSimulation.run(10, 5, 66)).isEqualTo(IntervalSimulation.run(10, 5, 66));
  }

  @Test
  void autoLosesLessThanEitherFixedIntervalOnExponentialHosts() {
    for (double c : new double[] {5, 30, 120}) {
      double auto = IntervalSimulation.simulate(1.0, c, "auto", 40, 10, 66).lostPerDay();
      assertThat(auto).as("C = %s s", c).isLessThan(IntervalSimulation.simulate(1.0, c, "10m", 40, 10, 66).lostPerDay())
          .isLessThan(IntervalSimulation.simulate(1.0, c, "1h", 40, 10, 66).lostPerDay());
    }
  }

  @Test
  void everyPolicyAndCostHasARow() {
    List<IntervalSimulation.Row> rows = IntervalSimulation.run(2, 1, 1);
    assertThat(rows).hasSize(18);
    assertThat(rows).allSatisfy(r -> assertThat(r.lostPerDay()).isPositive());
  }
}
