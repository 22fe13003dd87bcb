package org.cairn.cli.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class WarmupTest {
  @Test
  void runsTheChunkPathBothWaysAndStopsAtItsCount() {
    assertThat(Warmup.run(6, Duration.ofMinutes(1))).isEqualTo(6);
  }

  @Test
  void stopsAtItsTimeBudget() {
    assertThat(Warmup.run(1_000_000, Duration.ZERO)).isZero();
  }
}
