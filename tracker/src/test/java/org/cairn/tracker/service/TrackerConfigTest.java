package org.cairn.tracker.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TrackerConfigTest {
  private static final Path DATA = Path.of("/tmp/cairn-tracker-config-test");

  @Test
  void aBuilderGivenOnlyTheDataDirectoryHoldsTheDocumentedDefaults() {
    TrackerConfig c = TrackerConfig.builder(DATA).build();
    assertThat(c.dataDir()).isEqualTo(DATA);
    assertThat(c.listen()).hasToString("127.0.0.1:7600");
    assertThat(c.token()).isNull();
    assertThat(c.heartbeatInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.peerTimeout()).as("three heartbeat intervals").isEqualTo(Duration.ofSeconds(15));
    assertThat(c.historySlot()).isEqualTo(Duration.ofMinutes(1));
    assertThat(c.historyRetention()).isEqualTo(Duration.ofDays(14));
    assertThat(c.historyWindow()).isEqualTo(Duration.ofDays(7));
    assertThat(c.repairGrace()).isEqualTo(Duration.ofMinutes(10));
    assertThat(c.repairInterval()).isEqualTo(Duration.ofSeconds(2));
    assertThat(c.repairJobsPerPeer()).isEqualTo(4);
    assertThat(c.tls()).isTrue();
    assertThat(c.gcHold()).isEqualTo(Duration.ofSeconds(60));
    assertThat(c.setTimeout()).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void theDefaultPeerTimeoutFollowsTheHeartbeatIntervalWhateverTheOrderOfSetting() {
    TrackerConfig c = TrackerConfig.builder(DATA).heartbeatInterval(Duration.ofSeconds(20)).build();
    assertThat(c.peerTimeout()).isEqualTo(Duration.ofSeconds(60));
    TrackerConfig set = TrackerConfig.builder(DATA).peerTimeout(Duration.ofSeconds(40)).heartbeatInterval(Duration.ofSeconds(20))
        .build();
    assertThat(set.peerTimeout()).isEqualTo(Duration.ofSeconds(40));
  }

  @Test
  void toBuilderKeepsEverySettingButTheOneChanged() {
    TrackerConfig c = TrackerConfig.builder(DATA).repairJobsPerPeer(7).tls(false).gcHold(Duration.ZERO).build();
    TrackerConfig changed = c.toBuilder().repairInterval(Duration.ofSeconds(9)).build();
    assertThat(changed).isEqualTo(new TrackerConfig(c.dataDir(), c.listen(), c.token(), c.heartbeatInterval(), c.peerTimeout(),
        c.historySlot(), c.historyRetention(), c.historyWindow(), c.repairGrace(), Duration.ofSeconds(9), 7, false, Duration.ZERO,
        c.setTimeout()));
  }

  @Test
  void aBadSettingIsRefusedNamingItsOptionAndTheValue() {
    assertThatThrownBy(() -> TrackerConfig.builder(DATA).heartbeatInterval(Duration.ofMillis(50)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("--heartbeat-interval must be at least 100ms, was 50ms");
    assertThatThrownBy(() -> TrackerConfig.builder(DATA).peerTimeout(Duration.ofSeconds(5)).build())
        .hasMessage("--peer-timeout must be longer than the heartbeat interval (5000ms), was 5000ms");
    assertThatThrownBy(() -> TrackerConfig.builder(DATA).repairJobsPerPeer(65).build())
        .hasMessage("--repair-jobs-per-peer must be 1-64, was 65");
    assertThatThrownBy(() -> TrackerConfig.builder(DATA).historyWindow(Duration.ofSeconds(10)).build())
        .hasMessage("--history-window must be at least one history slot (60000ms), was 10000ms");
    assertThatThrownBy(() -> TrackerConfig.builder(DATA).setTimeout(Duration.ofMillis(10)).build())
        .hasMessage("--set-timeout must be at least 1s, was 10ms");
    assertThatThrownBy(() -> TrackerConfig.builder(DATA).gcHold(Duration.ofSeconds(-1)).build())
        .hasMessage("--gc-hold must be >= 0, was -1000ms");
    assertThatThrownBy(() -> TrackerConfig.builder(DATA).repairGrace(null).build()).hasMessage("--repair-grace is required");
    assertThatThrownBy(() -> TrackerConfig.builder(null).build()).hasMessage("--data is required");
  }
}
