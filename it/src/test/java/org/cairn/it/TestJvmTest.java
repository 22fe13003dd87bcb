package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestJvmTest {
  @Test
  void extraFlagsAreSplitOnWhitespace_andNoneGivenAddsNothing() {
    assertThat(TestJvm.extraFlags("  -XX:TieredStopAtLevel=4   -Xmx512m ")).containsExactly("-XX:TieredStopAtLevel=4", "-Xmx512m");
    assertThat(TestJvm.extraFlags("")).isEmpty();
  }

  @Test
  void aWordThatIsNoFlagIsRefused_soItCannotBecomeTheProgramsArgument() {
    assertThatThrownBy(() -> TestJvm.extraFlags("-Xmx512m quota"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'quota'");
    assertThatThrownBy(() -> TestJvm.extraFlags("jar")).hasMessageContaining("'jar'");
  }
}
