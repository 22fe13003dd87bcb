package org.cairn.cli.grid;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LocalGridFlagsTest {
  @Test
  void daemonsGetTheLightJvmByDefault_andTheEnvironmentOverrides() {
    assertThat(LocalGrid.jvmFlags(null)).containsExactly("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    assertThat(LocalGrid.jvmFlags("  ")).containsExactly("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    assertThat(LocalGrid.jvmFlags(" -XX:+UseG1GC   -Dx=1 ")).containsExactly("-XX:+UseG1GC", "-Dx=1");
  }
}
