package org.cairn.tracker.group;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.cairn.core.config.HostPort;
import org.cairn.core.security.GridToken;
import org.cairn.tracker.service.TrackerConfig;
import org.cairn.tracker.store.TrackerStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A donor's state and credential across a change of leader in a group of three (plain text, on loopback): the new leader
 * knows what the donor last said though its last heartbeats only moved their time (and wrote nothing to the log), and
 * still takes heartbeats only from the donor's own credential.
 */
class DonorStateAcrossLeadersTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration ELECTION = Duration.ofSeconds(20);
  private static final String ADMIN = "test-token-0123456789abcdef";

  @TempDir
  Path dir;

  private final List<TrackerMember> members = new ArrayList<>();
  private final Map<String, HostPort> raft = new LinkedHashMap<>();
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void stop() {
    members.forEach(TrackerMember::close);
  }

  @Test
  void theNewLeaderKnowsWhatADonorLastSaid_andTakesHeartbeatsOnlyFromItsOwnCredential() throws Exception {
    startGroup();
    TrackerMember first = awaitLeader(members);
    String donorToken = call(first, 200, "POST", "/api/v1/tokens", "{\"role\":\"donor\",\"uses\":2}", ADMIN).get("token").asText();
    String d1 = call(first, 200, "POST", "/api/v1/peers", registration("d1", 1), donorToken).get("credential").asText();
    String d2 = call(first, 200, "POST", "/api/v1/peers", registration("d2", 2), donorToken).get("credential").asText();
    String busy = "{\"state\":\"BUSY\",\"freeBytes\":1000000000,\"usedBytes\":8192,\"fragments\":2,\"paused\":true}";
    call(first, 200, "POST", "/api/v1/peers/d1/heartbeat", busy, d1);
    TrackerMember next = members.stream().filter(m -> m != first).findFirst().orElseThrow();
    awaitApplied(next, "d1", "\"reportedState\":\"BUSY\"");
    for (int i = 0; i < 3; i++) {
      call(first, 200, "POST", "/api/v1/peers/d1/heartbeat", busy, d1); // the same again: only the time moves
    }

    try (RaftClient client = RaftClient.newBuilder().setProperties(new RaftProperties())
        .setRaftGroup(RaftGroup.valueOf(RaftSettings.GROUP, peers())).build()) {
      assertThat(client.admin().transferLeadership(RaftPeerId.valueOf(next.view().self()), ELECTION.toMillis()).isSuccess()).isTrue();
    }
    assertThat(next.awaitServing(true, ELECTION)).as("the new leader serves").isTrue();

    JsonNode d1Now = call(next, 200, "GET", "/api/v1/peers/d1", null, ADMIN);
    assertThat(d1Now.get("state").asText()).isEqualTo("BUSY");
    assertThat(d1Now.get("paused").asBoolean()).isTrue();
    assertThat(d1Now.get("usedBytes").asLong()).isEqualTo(8192);
    assertThat(d1Now.get("fragments").asLong()).isEqualTo(2);
    call(next, 200, "POST", "/api/v1/peers/d1/heartbeat", busy, d1);
    assertThat(call(next, 403, "POST", "/api/v1/peers/d1/heartbeat", busy, d2).get("error").asText())
        .as("another donor's credential").contains("may act only as peer");
    String wrongSecret = d1.substring(0, d1.length() - 4) + (d1.endsWith("AAAA") ? "BBBB" : "AAAA");
    call(next, 401, "POST", "/api/v1/peers/d1/heartbeat", busy, wrongSecret);
  }

  private static String registration(String id, int n) {
    return "{\"id\":\"" + id + "\",\"address\":\"10.0.0." + n + ":7700\",\"state\":\"RUNNING\",\"freeBytes\":1000000000,"
        + "\"quotaBytes\":2000000000}";
  }

  /** Waits until member {@code m} applied a record of peer {@code id} that holds {@code text}. */
  private static void awaitApplied(TrackerMember m, String id, String text) throws Exception {
    long deadline = System.nanoTime() + ELECTION.toNanos();
    while (System.nanoTime() < deadline) {
      byte[] v = m.store().get(TrackerStore.Family.PEERS, id.getBytes(StandardCharsets.UTF_8));
      if (v != null && new String(v, StandardCharsets.UTF_8).contains(text)) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError(m.view().self() + " did not apply " + id + "'s record with " + text + " within " + ELECTION);
  }

  private void startGroup() throws Exception {
    for (String id : List.of("a", "b", "c")) {
      raft.put(id, HostPort.parse("127.0.0.1:" + freePort()));
    }
    for (String id : raft.keySet()) {
      TrackerConfig config = TrackerConfig.builder(dir.resolve(id)).listen(HostPort.parse("127.0.0.1:0")).tls(false)
          .token(GridToken.of(ADMIN)).heartbeatInterval(Duration.ofSeconds(10)).build();
      members.add(new TrackerMember(config, new GroupSpec(id, raft), Clock.systemUTC()));
    }
  }

  private List<RaftPeer> peers() {
    List<RaftPeer> peers = new ArrayList<>();
    raft.forEach((id, at) -> peers.add(RaftPeer.newBuilder().setId(id).setAddress(at.toString()).build()));
    return peers;
  }

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

  private JsonNode call(TrackerMember m, int expected, String method, String path, String body, String token) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(m.url() + path)).header("Authorization", "Bearer " + token)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as("%s %s at %s -> %s", method, path, m.view().self(), r.body()).isEqualTo(expected);
    return JSON.readTree(r.body());
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
