package org.cairn.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimSettingsTest {
  private static SimSettings with(List<URI> trackers, int donors, double fail, List<Long> pids) {
    return new SimSettings(trackers, Path.of("token"), donors, 1, 64, 2, 10, fail, 60, pids, 60, 9, true, 1);
  }

  private static final List<URI> ONE = List.of(URI.create("https://127.0.0.1:7600"));

  @Test
  void sensibleSettingsAreTaken() {
    assertThat(with(ONE, 10_000, 0.2, List.of(42L)).donors()).isEqualTo(10_000);
  }

  @Test
  void aPidForEachTrackerOrNone() {
    List<URI> three = List.of(URI.create("https://a:1"), URI.create("https://b:2"), URI.create("https://c:3"));
    assertThatThrownBy(() -> with(three, 10, 0.2, List.of(1L))).hasMessageContaining("--tracker-pid names 1 processes for 3 trackers");
    assertThat(with(three, 10, 0.2, List.of()).trackerPids()).isEmpty();
  }

  @Test
  void outOfRangeFlagsAreRefusedWithTheFlagsName() {
    assertThatThrownBy(() -> with(ONE, 0, 0.2, List.of())).hasMessageContaining("--donors");
    assertThatThrownBy(() -> with(ONE, 10, 1.0, List.of())).hasMessageContaining("--fail-fraction");
    assertThatThrownBy(() -> with(List.of(URI.create("ftp://x:1")), 10, 0.2, List.of())).hasMessageContaining("--tracker");
    assertThatThrownBy(() -> with(List.of(), 10, 0.2, List.of())).hasMessageContaining("--tracker is required");
  }
}
