package org.cairn.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class JobPathTest {
  @Test
  void readsTheChildrensLineOfTimes() {
    assertThat(JobPath.childCpu("0m0.010s 0m0.002s\n1m2.500s 0m0.250s\n")).isCloseTo(62.75, within(1e-9));
    assertThat(JobPath.childCpu("0m0.000s 0m0.000s\n0m0.000s 0m0.000s")).isZero();
  }
}
