package org.cairn.cli.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TunablesTest {
  @Test
  void unsetKnobsAreTheDefaults() {
    assertThat(Tunables.from(name -> null)).isEqualTo(Tunables.DEFAULT);
    assertThat(Tunables.DEFAULT).isEqualTo(new Tunables(Duration.ofSeconds(5), Duration.ofSeconds(30), 16L << 20));
  }

  @Test
  void theSamePropertyNamesAsBeforeSetThem() {
    Map<String, String> p = Map.of("cairn.agent.watchMillis", "500", "cairn.agent.trimAfterSeconds", "0", "cairn.writebackBytes", "0");
    assertThat(Tunables.from(p::get)).isEqualTo(new Tunables(Duration.ofMillis(500), Duration.ZERO, 0));
  }

  @Test
  void aKnobThatIsNoNumberOrOutOfRangeIsRefusedNamingIt() {
    assertThatThrownBy(() -> Tunables.from(Map.of("cairn.agent.watchMillis", "fast")::get))
        .hasMessage("-Dcairn.agent.watchMillis must be a whole number, was 'fast'");
    assertThatThrownBy(() -> Tunables.from(Map.of("cairn.agent.watchMillis", "0")::get)).hasMessageContaining("cairn.agent.watchMillis");
    assertThatThrownBy(() -> Tunables.from(Map.of("cairn.agent.trimAfterSeconds", "-1")::get))
        .hasMessageContaining("cairn.agent.trimAfterSeconds");
    assertThatThrownBy(() -> Tunables.from(Map.of("cairn.writebackBytes", "-5")::get)).hasMessageContaining("cairn.writebackBytes");
  }
}
