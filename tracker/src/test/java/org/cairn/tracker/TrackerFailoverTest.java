package org.cairn.tracker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.TrackerEndpoints;
import org.cairn.core.api.TrackerHttp;
import org.cairn.core.config.HostPort;
import org.cairn.core.security.GridToken;
import org.cairn.tracker.service.TrackerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --tracker URL1,URL2}: a call goes to a member that answers, and stays with it. */
class TrackerFailoverTest {
  private static final String TOKEN = "test-token-0123456789abcdef";

  @TempDir
  Path dir;

  @Test
  void callsMoveToTheMemberThatAnswers_andFailOnlyWhenNoneDoes() throws Exception {
    URI dead = URI.create("http://127.0.0.1:" + freePort());
    URI live;
    try (Tracker t = new Tracker(TrackerConfig.builder(dir).listen(HostPort.parse("127.0.0.1:0")).token(GridToken.of(TOKEN))
        .heartbeatInterval(Duration.ofSeconds(1)).historySlot(Duration.ofSeconds(1)).historyRetention(Duration.ofDays(1))
        .historyWindow(Duration.ofDays(1)).repairInterval(Duration.ofMillis(500)).repairJobsPerPeer(2).tls(false).build(), Clock.systemUTC())) {
      live = URI.create("http://127.0.0.1:" + t.port());
      TrackerClient c = new TrackerClient(TrackerEndpoints.parse(dead + "," + live + "/"), GridToken.of(TOKEN), Duration.ofSeconds(5));
      assertThat(c.base()).isEqualTo(dead);
      assertThat(c.versions("heat", "n1")).isEmpty();
      assertThat(c.base()).as("the member that answered is asked first from now on").isEqualTo(live);
      assertThat(c.peers()).isEmpty();
      org.cairn.core.api.status.ClusterView cluster = c.cluster();
      assertThat(cluster.leader()).isEqualTo("tracker");
      assertThat(cluster.members()).containsExactly(
          new org.cairn.core.api.status.ClusterView.Member("tracker", "127.0.0.1:" + t.port(), "leader"));
    }
    TrackerClient c = new TrackerClient(List.of(live, dead), GridToken.of(TOKEN), Duration.ofSeconds(5));
    assertThatThrownBy(() -> c.versions("heat", "n1")).isInstanceOf(TrackerHttp.UnreachableException.class)
        .hasMessageContaining("no tracker of").hasMessageContaining(live.toString()).hasMessageContaining(dead.toString());
  }

  @Test
  void parse_refusesWhatIsNotAListOfHttpUrls() {
    assertThat(TrackerEndpoints.parse("http://a:1, http://b:2/,http://a:1")).containsExactly(URI.create("http://a:1"),
        URI.create("http://b:2"));
    assertThatThrownBy(() -> TrackerEndpoints.parse("http://a:1,b:2")).hasMessageContaining("'b:2'");
    assertThatThrownBy(() -> TrackerEndpoints.parse("http://a:1,https://b:2")).hasMessageContaining("all http or all https");
    assertThatThrownBy(() -> TrackerEndpoints.parse(" , ")).hasMessageContaining("no tracker URL");
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
