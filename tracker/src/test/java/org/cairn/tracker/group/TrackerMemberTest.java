package org.cairn.tracker.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.cairn.core.config.HostPort;
import org.cairn.tracker.service.TrackerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A group of three members in this process (plain text, on loopback): each acts on Ratis's role events,
 * so a new leader serves the grid once the old one is gone or hands the lead on, and a member that no
 * longer leads stops serving and names the leader.
 */
class TrackerMemberTest {
  private static final Duration ELECTION = Duration.ofSeconds(20);

  @TempDir
  Path dir;

  private final List<TrackerMember> members = new ArrayList<>();
  private final Map<String, HostPort> raft = new LinkedHashMap<>();

  @AfterEach
  void stop() {
    members.forEach(TrackerMember::close);
  }

  @Test
  void whenTheLeaderStopsAnotherMemberTakesUpTheLeadAndServes() throws Exception {
    startGroup();
    TrackerMember first = awaitLeader(members);
    List<TrackerMember> others = new ArrayList<>(members);
    others.remove(first);
    for (TrackerMember m : others) {
      assertThat(m.serving()).isFalse();
      HttpResponse<String> write = post(m, "/api/v1/peers/register");
      assertThat(write.statusCode()).isEqualTo(503);
      assertThat(write.body()).contains("this tracker follows " + first.view().self());
    }

    first.close();
    TrackerMember next = awaitLeader(others);
    assertThat(next.view().leader()).isEqualTo(next.view().self());
    others.remove(next);
    assertThat(others.get(0).awaitServing(false, Duration.ZERO)).as("only one member serves").isTrue();
  }

  @Test
  void aLeaderThatHandsTheLeadOnStopsServingAndTheNewLeaderStarts() throws Exception {
    startGroup();
    TrackerMember first = awaitLeader(members);
    TrackerMember successor = members.stream().filter(m -> m != first).findFirst().orElseThrow();
    String to = successor.view().self();

    try (RaftClient client = RaftClient.newBuilder().setProperties(new RaftProperties())
        .setRaftGroup(RaftGroup.valueOf(RaftSettings.GROUP, peers())).build()) {
      RaftClientReply reply = client.admin().transferLeadership(RaftPeerId.valueOf(to), ELECTION.toMillis());
      assertThat(reply.isSuccess()).as("the lead moved to %s", to).isTrue();
    }

    assertThat(successor.awaitServing(true, ELECTION)).as("the new leader serves").isTrue();
    assertThat(first.awaitServing(false, ELECTION)).as("the old leader, still running, stopped serving").isTrue();
    HttpResponse<String> write = post(first, "/api/v1/peers/register");
    assertThat(write.statusCode()).isEqualTo(503);
    assertThat(write.body()).contains("this tracker follows " + to);
  }

  private void startGroup() throws Exception {
    for (String id : List.of("a", "b", "c")) {
      raft.put(id, HostPort.parse("127.0.0.1:" + freePort()));
    }
    for (String id : raft.keySet()) {
      TrackerConfig config = TrackerConfig.builder(dir.resolve(id)).listen(HostPort.parse("127.0.0.1:0")).tls(false)
          .heartbeatInterval(Duration.ofSeconds(1)).build();
      members.add(new TrackerMember(config, new GroupSpec(id, raft), Clock.systemUTC()));
    }
  }

  private List<RaftPeer> peers() {
    List<RaftPeer> peers = new ArrayList<>();
    raft.forEach((id, at) -> peers.add(RaftPeer.newBuilder().setId(id).setAddress(at.toString()).build()));
    return peers;
  }

  /** The one member of {@code candidates} that serves the grid, awaited (each waits on its own role changes). */
  private static TrackerMember awaitLeader(List<TrackerMember> candidates) throws InterruptedException {
    long deadline = System.nanoTime() + ELECTION.toNanos();
    while (System.nanoTime() < deadline) {
      for (TrackerMember m : candidates) {
        if (m.awaitServing(true, Duration.ofMillis(100))) {
          return m;
        }
      }
    }
    throw new AssertionError("no member of the group served the grid within " + ELECTION);
  }

  private static HttpResponse<String> post(TrackerMember m, String path) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(m.url() + path)).POST(HttpRequest.BodyPublishers.ofString("{}"))
        .header("Authorization", "Bearer none").build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
