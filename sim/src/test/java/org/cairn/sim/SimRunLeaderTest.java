package org.cairn.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;
import org.cairn.core.api.status.ClusterView;
import org.junit.jupiter.api.Test;

/** Which member the donors enroll at: the one the group names as leader, once it names its URL. */
class SimRunLeaderTest {
  private static ClusterView.Member member(String id, String url) {
    return new ClusterView.Member(id, "127.0.0.1:1", "follower", url);
  }

  @Test
  void theLeadersUrlIsTheOneTheViewNames_andNoneWhileTheNewLeaderHasNotNamedItsOwn() {
    ClusterView named = new ClusterView("t2", List.of(member("t1", "https://a:1"), member("t2", "https://b:2")), "t1", 7L);
    assertThat(SimRun.leaderUrl(named)).isEqualTo(URI.create("https://b:2"));
    ClusterView unnamed = new ClusterView("t2", List.of(member("t1", "https://a:1"), member("t2", null)), "t1", 7L);
    assertThat(SimRun.leaderUrl(unnamed)).as("not the member that answered").isNull();
    ClusterView electing = new ClusterView("", List.of(member("t1", "https://a:1")), "t1", 7L);
    assertThat(SimRun.leaderUrl(electing)).isNull();
  }
}
