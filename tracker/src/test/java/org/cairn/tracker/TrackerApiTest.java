package org.cairn.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.cairn.core.availability.Crls;
import org.cairn.core.availability.HostState;
import org.cairn.core.security.GridToken;
import org.cairn.tracker.api.TrackerApi;
import org.cairn.tracker.api.call.Metrics;
import org.cairn.tracker.history.History;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.placement.PlacementService;
import org.cairn.tracker.store.TrackerStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The API without a network: real RocksDB in a temp dir, a clock moved by hand. */
class TrackerApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "test-token-0123456789abcdef";
  private static final String AUTH = "Bearer " + TOKEN;

  @TempDir
  Path dir;

  private final MutableClock clock = new MutableClock(1_800_000_000_000L);
  private org.cairn.tracker.auth.Credentials credentials;
  private TrackerStore store;
  private Membership membership;
  private History history;
  private TrackerApi api;
  private PlacementService placement;
  private org.cairn.tracker.events.EventLog events;
  private org.cairn.tracker.catalog.Catalog catalog;
  private org.cairn.tracker.repair.RepairService repair;

  @BeforeEach
  void open() throws IOException {
    openAt(dir);
  }

  private void openAt(Path d) throws IOException {
    store = TrackerStore.open(d);
    membership = new Membership(store, clock, Duration.ofSeconds(3));
    history = new History(store, clock, Duration.ofMinutes(1), Duration.ofDays(14));
    placement = new PlacementService(store, membership, history, clock, Crls.defaults(), Duration.ofDays(7), Duration.ofSeconds(10));
    events = new org.cairn.tracker.events.EventLog(clock, 100);
    catalog = new org.cairn.tracker.catalog.Catalog(store, clock, events);
    repair = new org.cairn.tracker.repair.RepairService(catalog, membership, placement, events, clock,
        new org.cairn.tracker.repair.RepairService.Config(Duration.ofMinutes(10), Duration.ofSeconds(1), 4, Duration.ofMinutes(2)));
    credentials = org.cairn.tracker.auth.Credentials.open(d.resolve("auth"), GridToken.of(TOKEN), clock);
    api = new TrackerApi(credentials, membership, history, placement, new Metrics(() -> TrackerApi.countByState(membership.peers())),
        clock, Duration.ofSeconds(1), Crls.defaults(), catalog, repair, events);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private JsonNode call(int expectedStatus, String method, String path, String body) throws IOException {
    return call(expectedStatus, method, path, Map.of(), body, AUTH);
  }

  private JsonNode call(int expectedStatus, String method, String path, Map<String, String> query, String body, String auth)
      throws IOException {
    var r = api.handle(method, path, query, body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8), auth);
    String text = new String(r.body(), StandardCharsets.UTF_8);
    assertThat(r.status()).as("%s %s -> %s", method, path, text).isEqualTo(expectedStatus);
    return r.contentType().startsWith("application/json") ? JSON.readTree(text) : null;
  }

  private void register(String id, String state) throws IOException {
    call(200, "POST", "/api/v1/peers", "{\"id\":\"" + id + "\",\"address\":\"127.0.0.1:" + (10000 + Math.floorMod(id.hashCode(), 50000)) + "\",\"state\":\"" + state
        + "\",\"freeBytes\":1000000000,\"quotaBytes\":2000000000}");
  }

  @Test
  void registerHeartbeatAndTimeout() throws IOException {
    register("p1", "RUNNING");
    JsonNode peers = call(200, "GET", "/api/v1/peers", null);
    assertThat(peers).hasSize(1);
    assertThat(peers.get(0).get("state").asText()).isEqualTo("RUNNING");

    clock.advance(Duration.ofSeconds(2));
    call(200, "POST", "/api/v1/peers/p1/heartbeat", "{\"state\":\"LOADED\",\"freeBytes\":5}");
    JsonNode p1 = call(200, "GET", "/api/v1/peers/p1", null);
    assertThat(p1.get("state").asText()).isEqualTo("LOADED");
    assertThat(p1.get("freeBytes").asLong()).isEqualTo(5);
    assertThat(p1.get("lastHeartbeat").asLong()).isEqualTo(clock.millis());

    clock.advance(Duration.ofMillis(3001));
    assertThat(call(200, "GET", "/api/v1/peers/p1", null).get("state").asText()).isEqualTo("DOWN");
    assertThat(membership.detectFailures()).isEqualTo(1);
    assertThat(membership.detectFailures()).as("logged once").isZero();

    // a DOWN peer that heartbeats again is back
    call(200, "POST", "/api/v1/peers/p1/heartbeat", "{\"state\":\"RUNNING\"}");
    assertThat(call(200, "GET", "/api/v1/peers/p1", null).get("state").asText()).isEqualTo("RUNNING");
  }

  @Test
  void unknownPeer_isToldToRegister() throws IOException {
    JsonNode e = call(404, "POST", "/api/v1/peers/ghost/heartbeat", "{\"state\":\"RUNNING\"}");
    assertThat(e.get("error").asText()).contains("register first");
  }

  @Test
  void leave_isDownAtOnce() throws IOException {
    register("p2", "RUNNING");
    call(200, "POST", "/api/v1/peers/p2/leave", "{}");
    assertThat(call(200, "GET", "/api/v1/peers/p2", null).get("state").asText()).isEqualTo("DOWN");
  }

  @Test
  void restart_keepsPeersAndGivesLivePeersAFreshTimeout() throws IOException {
    register("a", "RUNNING");
    register("b", "BUSY");
    register("c", "RUNNING");
    call(200, "POST", "/api/v1/peers/c/leave", "{}");
    store.close();
    clock.advance(Duration.ofMinutes(10)); // the tracker was down for 10 minutes
    openAt(dir);
    assertThat(call(200, "GET", "/api/v1/peers/a", null).get("state").asText()).isEqualTo("RUNNING");
    assertThat(call(200, "GET", "/api/v1/peers/b", null).get("state").asText()).isEqualTo("BUSY");
    assertThat(call(200, "GET", "/api/v1/peers/c", null).get("state").asText()).isEqualTo("DOWN");
    clock.advance(Duration.ofSeconds(4));
    assertThat(call(200, "GET", "/api/v1/peers/a", null).get("state").asText()).as("no heartbeat since restart").isEqualTo("DOWN");
  }

  @Test
  void bandwidthReports_surviveARestart() throws IOException {
    register("bw1", "RUNNING");
    call(200, "POST", "/api/v1/bandwidth", "{\"client\":\"job\",\"peer\":\"bw1\",\"bytesPerSecond\":12345678}");
    assertThat(call(400, "POST", "/api/v1/bandwidth", "{\"client\":\"job\",\"peer\":\"bw1\",\"bytesPerSecond\":-1}")
        .get("error").asText()).contains("must be positive");
    store.close();
    openAt(dir);
    assertThat(placement.bandwidth("job", "bw1")).isEqualTo(12345678.0);
    assertThat(placement.bandwidth("job", "other")).isZero();
  }

  @Test
  void passiveBandwidth_remembersCapacityThroughContention_butProbesReplace() throws IOException {
    register("bw2", "RUNNING");
    call(200, "POST", "/api/v1/bandwidth", "{\"client\":\"job\",\"peer\":\"bw2\",\"bytesPerSecond\":12000000}");
    // eight clients at once: this store saw an eighth of the link
    call(200, "POST", "/api/v1/bandwidth", "{\"client\":\"job\",\"peer\":\"bw2\",\"bytesPerSecond\":1500000}");
    assertThat(placement.bandwidth("job", "bw2")).isEqualTo(12_000_000.0);
    // the remembered value halves every 10 minutes of age
    clock.advance(Duration.ofMinutes(20));
    call(200, "POST", "/api/v1/bandwidth", "{\"client\":\"job\",\"peer\":\"bw2\",\"bytesPerSecond\":1500000}");
    assertThat(placement.bandwidth("job", "bw2")).isCloseTo(3_000_000.0, org.assertj.core.data.Offset.offset(1.0));
    assertThat(placement.bandwidthAgeSeconds("job", "bw2")).isZero();
    // a probe measures the link alone: it replaces
    call(200, "POST", "/api/v1/bandwidth", "{\"client\":\"job\",\"peer\":\"bw2\",\"bytesPerSecond\":900000,\"source\":\"probe\"}");
    assertThat(placement.bandwidth("job", "bw2")).isEqualTo(900_000.0);
    assertThat(placement.bandwidthAgeSeconds("job", "never")).isEqualTo(-1);
    // placement answers carry the measurement and its age
    clock.advance(Duration.ofSeconds(30));
    register("bw2", "RUNNING"); // alive again after the clock jumps
    JsonNode p = call(200, "POST", "/api/v1/placement", "{\"client\":\"job\",\"imageBytes\":1000,\"m\":1,\"k\":0,\"alternates\":0}");
    assertThat(p.get("hosts").get(0).get("bandwidthAgeSeconds").asDouble()).isEqualTo(30.0);
    assertThat(p.get("hosts").get(0).get("bytesPerSecond").asDouble()).isEqualTo(900_000.0);
    assertThat(p.get("hosts").get(0).get("address").asText()).as("the chosen host looked up by id")
        .isEqualTo(membership.peer("bw2").address()).startsWith("127.0.0.1:");
  }

  @Test
  void auth_isRequiredEverywhere() throws IOException {
    for (String path : new String[] {"/api/v1/peers", "/api/v1/health", "/metrics", "/api/v1/nothing"}) {
      call(401, "GET", path, Map.of(), null, null);
      call(401, "GET", path, Map.of(), null, "Bearer wrong-token-0123456789");
      call(401, "GET", path, Map.of(), null, TOKEN);
    }
  }

  @Test
  void badRequests_getClearErrors() throws IOException {
    assertThat(call(400, "POST", "/api/v1/peers", "{\"id\":\"bad id!\",\"address\":\"x:1\"}").get("error").asText())
        .contains("id must be");
    assertThat(call(400, "POST", "/api/v1/peers", "{\"id\":\"p\"}").get("error").asText()).contains("address is required");
    assertThat(call(400, "POST", "/api/v1/peers", "{\"id\":\"p\",\"address\":\"x:1\",\"state\":\"NAPPING\"}").get("error").asText())
        .contains("'NAPPING'");
    assertThat(call(400, "POST", "/api/v1/peers", "").get("error").asText()).contains("empty");
    assertThat(call(400, "POST", "/api/v1/peers", "[1,2").get("error").asText()).contains("not valid JSON");
    call(405, "DELETE", "/api/v1/peers", null);
    call(404, "GET", "/api/v1/nowhere", null);
    call(404, "GET", "/elsewhere", null);
    register("p3", "RUNNING");
    assertThat(call(400, "POST", "/api/v1/peers/p3/heartbeat", "{\"state\":\"DOWN\"}").get("error").asText()).contains("leave instead");
  }

  @Test
  void fuzz_randomAndMutatedBodiesNeverCauseServerErrors() throws IOException {
    register("f1", "RUNNING");
    Random random = new Random(42);
    String[] seeds = {"{\"id\":\"f2\",\"address\":\"127.0.0.1:1\",\"state\":\"RUNNING\",\"freeBytes\":1}",
        "{\"state\":\"LOADED\",\"freeBytes\":100,\"usedBytes\":3}", "{\"client\":\"c\",\"peer\":\"f1\",\"bytesPerSecond\":1e6}",
        "{\"client\":\"c\",\"imageBytes\":1000,\"m\":1,\"k\":0}", "{\"state\":\"UP\"}"};
    String[] paths = {"/api/v1/peers", "/api/v1/peers/f1/heartbeat", "/api/v1/bandwidth", "/api/v1/placement", "/api/v1/compute/c1/heartbeat"};
    for (int i = 0; i < 3000; i++) {
      int which = random.nextInt(seeds.length);
      byte[] body = seeds[which].getBytes(StandardCharsets.UTF_8);
      if (random.nextBoolean()) {
        body = body.clone();
        int flips = 1 + random.nextInt(4);
        for (int f = 0; f < flips; f++) {
          body[random.nextInt(body.length)] = (byte) random.nextInt(256);
        }
      } else if (random.nextInt(4) == 0) {
        body = new byte[random.nextInt(64)];
        random.nextBytes(body);
      }
      var r = api.handle("POST", paths[which], new HashMap<>(), body, AUTH);
      assertThat(r.status()).as("body %s", new String(body, StandardCharsets.ISO_8859_1)).isLessThan(500);
      JsonNode parsed = JSON.readTree(r.body());
      assertThat(parsed).isNotNull();
    }
  }

  @Test
  void historyAndAvailability_comeFromSampledSlots() throws IOException {
    register("s1", "RUNNING");
    call(200, "POST", "/api/v1/compute/job1/heartbeat", "{\"state\":\"UP\"}");
    for (int minute = 0; minute < 10; minute++) {
      if (minute == 5) {
        call(200, "POST", "/api/v1/compute/job1/heartbeat", "{\"state\":\"DOWN\"}");
        call(200, "POST", "/api/v1/peers/s1/heartbeat", "{\"state\":\"LOADED\"}");
      } else {
        call(200, "POST", "/api/v1/compute/job1/heartbeat", "{\"state\":\"UP\"}");
        call(200, "POST", "/api/v1/peers/s1/heartbeat", "{\"state\":\"RUNNING\"}");
      }
      history.sample(membership.peerStates(), membership.computeStates());
      if (minute < 9) {
        clock.advance(Duration.ofMinutes(1)); // the window ends with the current slot: the last one sampled
      }
    }
    JsonNode h = call(200, "GET", "/api/v1/peers/s1/history", Map.of("window", "10m"), null, AUTH);
    assertThat(h.get("states").asText()).isEqualTo("RRRRRLRRRR");
    assertThat(h.get("probabilities").get("LOADED").asDouble()).isEqualTo(0.1);
    JsonNode c = call(200, "GET", "/api/v1/compute/job1/history", Map.of("window", "10m"), null, AUTH);
    assertThat(c.get("states").asText()).isEqualTo("UUUUUDUUUU");
    assertThat(c.get("mttfSeconds").asDouble()).isEqualTo(9 * 60.0);
    JsonNode a = call(200, "GET", "/api/v1/availability", Map.of("storage", "s1", "compute", "job1", "window", "10m"), null, AUTH);
    // the one slot the job was down, s1 was LOADED: CR = 1 -> CRLS = 0.95 + 0.75 * P(R|up) = 0.95 + 0.75
    assertThat(a.get("cr").asDouble()).isEqualTo(1.0);
    assertThat(a.get("crls").asDouble()).isEqualTo(0.95 + 0.75);
  }

  @Test
  void placement_choosesAmongWritablePeers() throws IOException {
    register("r1", "RUNNING");
    register("r2", "LOADED");
    register("b3", "BUSY");
    register("r4", "RUNNING");
    JsonNode p = call(200, "POST", "/api/v1/placement", "{\"client\":\"job\",\"imageBytes\":1000000,\"m\":2,\"k\":1}");
    assertThat(p.get("hosts")).hasSize(3);
    assertThat(p.get("hosts").findValuesAsText("id")).doesNotContain("b3").doesNotHaveDuplicates();
    assertThat(p.get("hosts").get(0).get("address").asText()).startsWith("127.0.0.1:");
    JsonNode tooMany = call(409, "POST", "/api/v1/placement", "{\"client\":\"job\",\"imageBytes\":1000000,\"m\":3,\"k\":2}");
    assertThat(tooMany.get("error").asText()).contains("need 5 storage hosts");
  }

  /** A peer's reported disk rate caps its link's in placement: the fast-linked donor with a slow disk loses its place. */
  @Test
  void placement_usesTheSlowerOfLinkAndReportedDiskRate() throws IOException {
    for (String id : new String[] {"k1", "k2", "k3"}) {
      register(id, "RUNNING");
      call(200, "POST", "/api/v1/bandwidth", "{\"client\":\"job\",\"peer\":\"" + id + "\",\"bytesPerSecond\":"
          + (id.equals("k3") ? 5_000_000 : 100_000_000) + ",\"source\":\"probe\"}");
    }
    String request = "{\"client\":\"job\",\"imageBytes\":100000000,\"m\":2,\"k\":0,\"alternates\":1}";
    assertThat(call(200, "POST", "/api/v1/placement", request).get("hosts").findValuesAsText("id")).containsExactlyInAnyOrder("k1", "k2");
    call(200, "POST", "/api/v1/peers/k1/heartbeat", "{\"state\":\"RUNNING\",\"freeBytes\":1000000000,\"diskWriteBytesPerSecond\":2000000}");
    assertThat(call(200, "GET", "/api/v1/peers/k1", null).get("diskWriteBytesPerSecond").asDouble()).isEqualTo(2_000_000);
    JsonNode p = call(200, "POST", "/api/v1/placement", request);
    assertThat(p.get("hosts").findValuesAsText("id")).containsExactlyInAnyOrder("k2", "k3");
    assertThat(p.get("alternates").get(0).get("id").asText()).isEqualTo("k1");
    assertThat(p.get("alternates").get(0).get("diskBytesPerSecond").asDouble()).isEqualTo(2_000_000);
    // a heartbeat without a rate (unknown: the peer forgot it) gives the link back its say
    call(200, "POST", "/api/v1/peers/k1/heartbeat", "{\"state\":\"RUNNING\",\"freeBytes\":1000000000}");
    assertThat(call(200, "POST", "/api/v1/placement", request).get("hosts").findValuesAsText("id")).containsExactlyInAnyOrder("k1", "k2");
  }

  @Test
  void metrics_countHeartbeatsAndPeersByState() throws IOException {
    register("m1", "RUNNING");
    register("m2", "BUSY");
    call(200, "POST", "/api/v1/peers/m1/heartbeat", "{}");
    var r = api.handle("GET", "/metrics", Map.of(), new byte[0], AUTH);
    String text = new String(r.body(), StandardCharsets.UTF_8);
    assertThat(text).contains("cairn_heartbeats_total 3").contains("cairn_peers{state=\"BUSY\"} 1")
        .contains("cairn_peers{state=\"RUNNING\"} 1").contains("cairn_http_request_seconds_count");
    assertThat(HostState.values()).hasSize(5);
  }

  private static String manifestJson(long step, String... chunkIds) {
    StringBuilder chunks = new StringBuilder();
    for (int i = 0; i < chunkIds.length; i++) {
      chunks.append(i > 0 ? "," : "").append("{\"id\":\"").append(chunkIds[i]).append("\",\"length\":100}");
    }
    return "{\"schemaVersion\":1,\"app\":\"heat\",\"node\":\"n1\",\"step\":" + step + ",\"size\":" + (100 * chunkIds.length)
        + ",\"chunkSize\":100,\"redundancy\":\"code:2+1\",\"compression\":\"auto\",\"createdAt\":5,\"chunks\":[" + chunks + "]}";
  }

  @Test
  void aManifestOfANewerSchema_isRefusedAtTheCommit_notAtTheFetch() throws IOException {
    register("h1", "RUNNING");
    register("h22", "RUNNING");
    String a = org.cairn.core.hash.ChunkId.of(new byte[] {1}).hex();
    String newer = manifestJson(0, a).replace("\"schemaVersion\":1", "\"schemaVersion\":9");
    assertThat(call(400, "POST", "/api/v1/versions", "{\"manifest\":" + newer + ",\"chunks\":[{\"id\":\"" + a
        + "\",\"holders\":[\"h1\",\"h22\",null],\"tags\":[\"0000000a\",\"0000000b\",\"0000000c\"],\"storedBytes\":300}]}")
        .get("error").asText()).contains("schema version 9 is not supported").contains("upgrade Cairn");
    assertThat(call(200, "GET", "/api/v1/versions", Map.of("app", "heat", "node", "n1"), null, AUTH)).isEmpty();
  }

  @Test
  void catalog_commitsVersionsAtomicallyAndDedupsChunks() throws IOException {
    register("h1", "RUNNING");
    register("h22", "RUNNING");
    String a = org.cairn.core.hash.ChunkId.of(new byte[] {1}).hex();
    String b = org.cairn.core.hash.ChunkId.of(new byte[] {2}).hex();
    String c = org.cairn.core.hash.ChunkId.of(new byte[] {3}).hex();
    JsonNode held = call(200, "POST", "/api/v1/chunks/lookup", "{\"app\":\"heat\",\"ids\":[\"" + a + "\",\"" + b + "\"]}");
    assertThat(held.get("held").toString()).isEqualTo("[false,false]");

    // a chunk neither held nor sent: refused, and nothing is committed
    assertThat(call(400, "POST", "/api/v1/versions", "{\"manifest\":" + manifestJson(0, a, b) + ",\"chunks\":[{\"id\":\"" + a
        + "\",\"holders\":[\"h1\",\"h22\",null],\"tags\":[\"0000000a\",\"0000000b\",\"0000000c\"],\"storedBytes\":300}]}").get("error").asText()).contains("is neither held for app heat nor sent");
    assertThat(call(200, "GET", "/api/v1/versions", Map.of("app", "heat", "node", "n1"), null, AUTH)).isEmpty();

    // every new chunk names its fragments' tags (their keys on the peers), one per holder
    assertThat(call(400, "POST", "/api/v1/versions", "{\"manifest\":" + manifestJson(0, a) + ",\"chunks\":[{\"id\":\"" + a
        + "\",\"holders\":[\"h1\",\"h22\",null],\"storedBytes\":300}]}").get("error").asText()).contains("needs one tag per fragment");
    assertThat(call(400, "POST", "/api/v1/versions", "{\"manifest\":" + manifestJson(0, a) + ",\"chunks\":[{\"id\":\"" + a
        + "\",\"holders\":[\"h1\",\"h22\",null],\"tags\":[\"1\",\"2\",\"3\"],\"storedBytes\":300}]}").get("error").asText())
        .contains("8 hex digits");
    String sent = ",\"chunks\":[{\"id\":\"" + a + "\",\"holders\":[\"h1\",\"h22\",null],\"tags\":[\"0000000a\",\"0000000b\",\"0000000c\"],\"storedBytes\":300},"
        + "{\"id\":\"" + b + "\",\"holders\":[\"h1\",\"h22\",\"h1\"],\"tags\":[\"0000000a\",\"0000000b\",\"0000000c\"],\"storedBytes\":200}]}";
    assertThat(call(200, "POST", "/api/v1/versions", "{\"manifest\":" + manifestJson(0, a, b) + sent).get("step").asLong()).isEqualTo(1);
    held = call(200, "POST", "/api/v1/chunks/lookup", "{\"app\":\"heat\",\"ids\":[\"" + a + "\",\"" + c + "\"]}");
    assertThat(held.get("held").toString()).isEqualTo("[true,false]");
    // the next version reuses a and sends only c; step defaults to the next one
    String second = "{\"manifest\":" + manifestJson(0, a, c) + ",\"chunks\":[{\"id\":\"" + c
        + "\",\"holders\":[\"h22\",\"h1\",\"h22\"],\"tags\":[\"0000000a\",\"0000000b\",\"0000000c\"],\"storedBytes\":150}]}";
    assertThat(call(200, "POST", "/api/v1/versions", second).get("step").asLong()).isEqualTo(2);
    assertThat(call(400, "POST", "/api/v1/versions", "{\"manifest\":" + manifestJson(2, a) + "}").get("error").asText())
        .contains("already exists");

    JsonNode versions = call(200, "GET", "/api/v1/versions", Map.of("app", "heat", "node", "n1"), null, AUTH);
    assertThat(versions).hasSize(2);
    assertThat(versions.get(0).get("storedBytes").asLong()).isEqualTo(500);
    assertThat(versions.get(1).get("storedBytes").asLong()).isEqualTo(150);
    assertThat(versions.get(1).get("size").asLong()).isEqualTo(200);
    assertThat(versions.get(1).get("createdAt").asLong()).isEqualTo(5);

    JsonNode latest = call(200, "GET", "/api/v1/manifest", Map.of("app", "heat", "node", "n1"), null, AUTH);
    assertThat(latest.get("manifest").get("step").asLong()).isEqualTo(2);
    assertThat(latest.get("chunks").get(c).get("holders").get(0).get("id").asText()).isEqualTo("h22");
    assertThat(latest.get("chunks").get(c).get("holders").get(0).get("address").asText()).startsWith("127.0.0.1:");
    assertThat(latest.get("chunks").get(c).get("holders").get(1).get("tag").asText()).isEqualTo("0000000b");
    assertThat(latest.get("chunks").get(a).get("holders").get(2).isNull()).isTrue();
    assertThat(latest.get("tickets")).isNotEmpty();
    // without holders: the same version, each chunk's coding only, and no tickets
    JsonNode codings = call(200, "GET", "/api/v1/manifest", Map.of("app", "heat", "node", "n1", "holders", "none"), null, AUTH);
    assertThat(codings.get("manifest")).isEqualTo(latest.get("manifest"));
    assertThat(codings.get("chunks").get(c).get("redundancy").asText()).isEqualTo(latest.get("chunks").get(c).get("redundancy").asText());
    assertThat(codings.get("chunks").get(c).get("holders")).isEmpty();
    assertThat(codings.get("chunks").get(a).get("holders")).isEmpty();
    assertThat(codings.get("tickets")).isEmpty();
    assertThat(call(400, "GET", "/api/v1/manifest", Map.of("app", "heat", "node", "n1", "holders", "some"), null, AUTH).get("error").asText())
        .contains("holders must be all or none");
    call(404, "GET", "/api/v1/manifest", Map.of("app", "heat", "node", "n9"), null, AUTH);
    assertThat(call(200, "GET", "/api/v1/apps", null).get(0).get("nodes").get("n1").asInt()).isEqualTo(2);

    // deleting v1 keeps a (v2 still refers to it) and drops b
    call(200, "DELETE", "/api/v1/versions", Map.of("app", "heat", "node", "n1", "step", "1"), null, AUTH);
    held = call(200, "POST", "/api/v1/chunks/lookup", "{\"app\":\"heat\",\"ids\":[\"" + a + "\",\"" + b + "\"]}");
    assertThat(held.get("held").toString()).isEqualTo("[true,false]");
    call(400, "GET", "/api/v1/versions", Map.of("app", "bad app"), null, AUTH);
  }

  @Test
  void policiesAndInventoryGc() throws IOException {
    assertThat(call(200, "GET", "/api/v1/policy", Map.of("app", "heat"), null, AUTH).get("folder").asText()).isEqualTo("keep-all");
    assertThat(call(400, "POST", "/api/v1/policy", "{\"app\":\"heat\",\"folder\":\"shred\"}").get("error").asText())
        .contains("'shred'");
    assertThat(call(400, "POST", "/api/v1/policy", "{\"app\":\"heat\",\"folder\":\"purge-after=soon\"}").get("error").asText())
        .contains("'soon'");
    call(200, "POST", "/api/v1/policy", "{\"app\":\"heat\",\"folder\":\"replace\"}");
    register("g1", "RUNNING");
    String a = org.cairn.core.hash.ChunkId.of(new byte[] {7}).hex();
    String b = org.cairn.core.hash.ChunkId.of(new byte[] {8}).hex();
    call(200, "POST", "/api/v1/versions", "{\"manifest\":" + manifestJson(0, a) + ",\"chunks\":[{\"id\":\"" + a
        + "\",\"holders\":[\"g1\",\"x\",\"y\"],\"tags\":[\"0000000a\",\"0000000b\",\"0000000c\"],\"storedBytes\":3}]}");
    // g1 holds fragment 0 of a (wanted), fragment 0 of a made another way (another tag: another app's piece, not
    // this one), fragment 1 of a (assigned to x) and fragment 0 of b (no chunk)
    String inventory = "{\"keys\":[\"" + a + "000000000a\",\"" + a + "00ffffffff\",\"" + a + "010000000b\",\"" + b + "000000000a\"]}";
    JsonNode g = call(200, "POST", "/api/v1/peers/g1/inventory", inventory);
    assertThat(g.get("garbage").toString()).doesNotContain(a + "000000000a").contains(a + "00ffffffff").contains(a + "010000000b")
        .contains(b + "000000000a");
    // replace: the next version deletes step 1, so a's fragments become garbage too
    call(200, "POST", "/api/v1/versions", "{\"manifest\":" + manifestJson(0, b) + ",\"chunks\":[{\"id\":\"" + b
        + "\",\"holders\":[\"g1\",\"x\",\"y\"],\"tags\":[\"0000000a\",\"0000000b\",\"0000000c\"],\"storedBytes\":3}]}");
    assertThat(call(200, "GET", "/api/v1/versions", Map.of("app", "heat", "node", "n1"), null, AUTH)).hasSize(1);
    g = call(200, "POST", "/api/v1/peers/g1/inventory", inventory);
    assertThat(g.get("garbage").toString()).contains(a + "000000000a").contains(a + "010000000b").doesNotContain(b + "000000000a");
    call(404, "POST", "/api/v1/peers/nobody/inventory", inventory);
  }

  @Test
  void inventoryGc_sparesTheChunksOfAStoreInFlight_untilItCommitsOrGoesSilent() throws IOException {
    register("g1", "RUNNING");
    String a = org.cairn.core.hash.ChunkId.of(new byte[] {11}).hex();
    String b = org.cairn.core.hash.ChunkId.of(new byte[] {12}).hex();
    String inventory = "{\"keys\":[\"" + a + "000000000a\",\"" + b + "000000000a\"]}";
    assertThat(call(200, "POST", "/api/v1/peers/g1/inventory", inventory).get("garbage")).hasSize(2);
    // a store names a and b before sending their pieces: not garbage while it runs
    assertThat(call(200, "POST", "/api/v1/stores/s-1/pending", "{\"app\":\"heat\",\"chunks\":[\"" + a + "\",\"" + b + "\"]}").get("pending").asInt())
        .isEqualTo(2);
    assertThat(call(200, "POST", "/api/v1/peers/g1/inventory", inventory).get("garbage")).isEmpty();
    // its commit indexes a only (b was not needed after all) and ends the session
    call(200, "POST", "/api/v1/versions", "{\"manifest\":" + manifestJson(0, a) + ",\"session\":\"s-1\",\"chunks\":[{\"id\":\"" + a
        + "\",\"holders\":[\"g1\",\"x\",\"y\"],\"tags\":[\"0000000a\",\"0000000b\",\"0000000c\"],\"storedBytes\":3}]}");
    assertThat(call(200, "POST", "/api/v1/peers/g1/inventory", inventory).get("garbage").toString()).doesNotContain(a).contains(b);
    // a session kept alive with empty calls stays; one whose client went silent expires after 2 minutes
    call(200, "POST", "/api/v1/stores/s-2/pending", "{\"app\":\"heat\",\"chunks\":[\"" + b + "\"]}");
    clock.advance(Duration.ofSeconds(90));
    call(200, "POST", "/api/v1/stores/s-2/pending", "{\"app\":\"heat\",\"chunks\":[]}");
    clock.advance(Duration.ofSeconds(90));
    assertThat(call(200, "POST", "/api/v1/peers/g1/inventory", inventory).get("garbage")).isEmpty();
    clock.advance(Duration.ofSeconds(121));
    assertThat(call(200, "POST", "/api/v1/peers/g1/inventory", inventory).get("garbage").toString()).contains(b);
    // a commit repeated by its session (the client got no answer the first time) is answered with the same step
    String again = "{\"manifest\":" + manifestJson(0, a) + ",\"session\":\"s-9\",\"chunks\":[]}";
    long first = call(200, "POST", "/api/v1/versions", again).get("step").asLong();
    assertThat(call(200, "POST", "/api/v1/versions", again).get("step").asLong()).isEqualTo(first);
    assertThat(call(200, "GET", "/api/v1/versions", Map.of("app", "heat", "node", "n1"), null, AUTH)).hasSize(2);
    // a store that gives up ends its session at once
    call(200, "POST", "/api/v1/stores/s-3/pending", "{\"app\":\"heat\",\"chunks\":[\"" + b + "\"]}");
    assertThat(call(200, "DELETE", "/api/v1/stores/s-3", null).get("closed").asBoolean()).isTrue();
    assertThat(call(200, "POST", "/api/v1/peers/g1/inventory", inventory).get("garbage").toString()).contains(b);
    assertThat(call(400, "POST", "/api/v1/stores/bad%20id/pending", "{\"app\":\"heat\",\"chunks\":[]}").get("error").asText()).contains("session id");
    assertThat(call(400, "POST", "/api/v1/stores/s-4/pending", "{\"app\":\"heat\",\"chunks\":[\"zz\"]}").get("error").asText()).contains("64 hex digits");
  }

  private void beat(String state, String... ids) throws IOException {
    for (String id : ids) {
      call(200, "POST", "/api/v1/peers/" + id + "/heartbeat", "{\"state\":\"" + state + "\",\"freeBytes\":1000000000}");
    }
  }

  @Test
  void repair_plansClaimsAndCommitsARebuiltPiece() throws IOException {
    for (String p : List.of("r1", "r2", "r3", "r4", "r5")) {
      register(p, "RUNNING");
    }
    String a = org.cairn.core.hash.ChunkId.of(new byte[] {7}).hex();
    call(200, "POST", "/api/v1/versions", "{\"manifest\":" + manifestJson(0, a) + ",\"chunks\":[{\"id\":\"" + a
        + "\",\"holders\":[\"r1\",\"r2\",\"r3\"],\"tags\":[\"0000000a\",\"0000000b\",\"0000000c\"],\"storedBytes\":300}]}");
    JsonNode d = call(200, "GET", "/api/v1/durability", null);
    assertThat(d.get("chunks").asLong()).isEqualTo(1);
    assertThat(d.get("healthy").asLong()).isEqualTo(1);
    assertThat(d.get("latest").get(0).get("restorable").asBoolean()).isTrue();

    // r3 stops heartbeating: degraded, but not repaired within the grace period
    clock.advance(Duration.ofSeconds(2));
    beat("RUNNING", "r1", "r2", "r4", "r5");
    clock.advance(Duration.ofSeconds(2));
    repair.scan();
    d = call(200, "GET", "/api/v1/durability", null);
    assertThat(d.get("degraded").asLong()).isEqualTo(1);
    assertThat(d.get("repairQueue").asInt()).isZero();
    assertThat(call(200, "POST", "/api/v1/peers/r4/repair", "{}").get("jobs")).isEmpty();

    // past the grace: queued; a LOADED peer gets no job, a RUNNING one does, with a RUNNING non-holder as target
    clock.advance(Duration.ofMinutes(10));
    beat("RUNNING", "r1", "r2", "r4");
    beat("LOADED", "r5");
    repair.scan();
    assertThat(call(200, "POST", "/api/v1/peers/r5/repair", "{}").get("jobs")).isEmpty();
    JsonNode claim = call(200, "POST", "/api/v1/peers/r4/repair", "{\"max\":2}");
    assertThat(claim.get("jobs")).hasSize(1);
    JsonNode job = claim.get("jobs").get(0);
    assertThat(job.get("chunk").asText()).isEqualTo(a);
    assertThat(job.get("redundancy").asText()).isEqualTo("code:2+1");
    assertThat(job.get("fragmentBytes").asLong()).isEqualTo(100);
    // r3 stopped heartbeating without leaving: named last, as DOWN, for the reader to ask only if r1 and r2 cannot give m
    assertThat(job.get("sources").findValuesAsText("peer")).containsExactly("r1", "r2", "r3");
    assertThat(job.get("sources").findValuesAsText("state")).as("sources carry their state, for the reader's order")
        .containsExactly("RUNNING", "RUNNING", "DOWN");
    assertThat(job.get("targets")).hasSize(1);
    assertThat(job.get("targets").get(0).has("state")).isFalse();
    assertThat(job.get("targets").get(0).get("index").asInt()).isEqualTo(2);
    assertThat(job.get("targets").get(0).get("peer").asText()).isEqualTo("r4");
    assertThat(job.get("tags").toString()).isEqualTo("[\"0000000a\",\"0000000b\",\"0000000c\"]");
    // a second claim does not hand out the same job
    assertThat(call(200, "POST", "/api/v1/peers/r1/repair", "{}").get("jobs")).isEmpty();

    // a report from a peer that does not own the job is ignored; the owner's report commits the piece
    String outcome = "{\"outcomes\":[{\"id\":\"" + job.get("id").asText() + "\",\"placed\":" + job.get("targets") + "}]}";
    call(200, "POST", "/api/v1/peers/r1/repaired", outcome);
    assertThat(call(200, "GET", "/api/v1/manifest", Map.of("app", "heat", "node", "n1"), null, AUTH).get("chunks").get(a).get("holders").get(2)
        .get("id").asText()).isEqualTo("r3");
    call(200, "POST", "/api/v1/peers/r4/repaired", outcome);
    JsonNode holders = call(200, "GET", "/api/v1/manifest", Map.of("app", "heat", "node", "n1"), null, AUTH).get("chunks").get(a).get("holders");
    assertThat(holders.findValuesAsText("id")).containsExactly("r1", "r2", "r4");
    repair.scan();
    d = call(200, "GET", "/api/v1/durability", null);
    assertThat(d.get("healthy").asLong()).isEqualTo(1);
    assertThat(d.get("repairedBytes").asLong()).isEqualTo(100);
    assertThat(d.get("repairedFragments").asLong()).isEqualTo(1);
    assertThat(events.since(0, 100).stream().map(org.cairn.tracker.events.EventLog.Event::kind)).contains("committed", "repaired");

    // a bad fragment leaves the index at once and is queued without a grace period
    call(200, "POST", "/api/v1/peers/r2/bad", "{\"fragments\":[{\"key\":\"" + a + "010000000b\",\"reason\":\"crc\"}]}");
    repair.scan();
    d = call(200, "GET", "/api/v1/durability", null);
    assertThat(d.get("degraded").asLong()).isEqualTo(1);
    assertThat(d.get("repairQueue").asInt()).isEqualTo(1);
    assertThat(call(400, "POST", "/api/v1/peers/r2/bad", "{\"fragments\":[{\"key\":\"abc\"}]}").get("error").asText())
        .contains("74 hex digits");
    JsonNode versions = call(200, "GET", "/api/v1/versions", Map.of("app", "heat", "node", "n1"), null, AUTH);
    assertThat(versions.get(0).get("status").asText()).isEqualTo("degraded");

    // fewer than m live pieces: lost, and the latest version is not restorable
    clock.advance(Duration.ofSeconds(4));
    beat("RUNNING", "r2", "r5");
    repair.scan();
    d = call(200, "GET", "/api/v1/durability", null);
    assertThat(d.get("lost").asLong()).isEqualTo(1);
    assertThat(d.get("latest").get(0).get("restorable").asBoolean()).isFalse();
    // r1 and r4 stopped heartbeating without leaving: the missing piece is queued, to be read from them if they still answer
    assertThat(d.get("repairQueue").asInt()).as("a long shot, from holders listed DOWN").isEqualTo(1);
    JsonNode longShot = call(200, "POST", "/api/v1/peers/r5/repair", "{}").get("jobs");
    assertThat(longShot).hasSize(1);
    assertThat(longShot.get(0).get("sources").findValuesAsText("state")).containsOnly("DOWN");
    assertThat(longShot.get(0).get("sources").findValuesAsText("peer")).containsExactlyInAnyOrder("r1", "r4");
  }

  @Test
  void statusPage_isServedWithoutTheToken_andItsDataOnlyWhenPublic() throws IOException {
    var page = api.handle("GET", "/", Map.of(), new byte[0], null);
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.contentType()).startsWith("text/html");
    assertThat(new String(page.body(), StandardCharsets.UTF_8)).contains("/ui/app.js").doesNotContain("token=");
    assertThat(api.handle("GET", "/ui/app.js", Map.of(), new byte[0], null).contentType()).startsWith("text/javascript");
    assertThat(api.handle("GET", "/ui/../pom.xml", Map.of(), new byte[0], null).status()).isEqualTo(404);
    // token mode (the default): the data needs the token
    call(401, "GET", "/api/v1/peers", Map.of(), null, null);
    api.setStatusPagePublic(true, false);
    call(200, "GET", "/api/v1/peers", Map.of(), null, null);
    call(200, "GET", "/api/v1/durability", Map.of(), null, null);
    // public: a summary without app names, unless the operator opts in (public-apps)
    register("h1", "RUNNING");
    String a = org.cairn.core.hash.ChunkId.of(new byte[] {1}).hex();
    call(200, "POST", "/api/v1/versions", "{\"manifest\":" + manifestJson(0, a) + ",\"chunks\":[{\"id\":\"" + a
        + "\",\"holders\":[\"h1\",\"h1\",\"h1\"],\"tags\":[\"0000000a\",\"0000000b\",\"0000000c\"],\"storedBytes\":300}]}");
    repair.scan();
    assertThat(call(200, "GET", "/api/v1/apps", Map.of(), null, null)).isEmpty();
    call(403, "GET", "/api/v1/versions", Map.of("app", "heat", "node", "n1"), null, null);
    assertThat(call(200, "GET", "/api/v1/durability", Map.of(), null, null).get("latest")).isEmpty();
    assertThat(call(200, "GET", "/api/v1/events", Map.of(), null, null).toString()).doesNotContain("heat");
    api.setStatusPagePublic(true, true);
    assertThat(call(200, "GET", "/api/v1/apps", Map.of(), null, null).toString()).contains("heat");
    call(200, "GET", "/api/v1/versions", Map.of("app", "heat", "node", "n1"), null, null);
    assertThat(call(200, "GET", "/api/v1/durability", Map.of(), null, null).get("latest").toString()).contains("heat");
    assertThat(call(200, "GET", "/api/v1/events", Map.of(), null, null).toString()).contains("committed");
    // still closed: writes, manifests and metrics
    call(401, "POST", "/api/v1/peers", Map.of(), "{}", null);
    call(401, "GET", "/api/v1/manifest", Map.of("app", "a", "node", "n"), null, null);
    assertThat(api.handle("GET", "/metrics", Map.of(), new byte[0], null).status()).isEqualTo(401);
  }

  @Test
  void repair_thatFailsIsRetriedByAnotherPeerOnAnotherTarget() throws IOException {
    for (String p : List.of("f1", "f2", "f3", "f4", "f5", "f6")) {
      register(p, "RUNNING");
    }
    String a = org.cairn.core.hash.ChunkId.of(new byte[] {9}).hex();
    call(200, "POST", "/api/v1/versions", "{\"manifest\":" + manifestJson(0, a) + ",\"chunks\":[{\"id\":\"" + a
        + "\",\"holders\":[\"f1\",\"f2\",\"f3\"],\"tags\":[\"0000000a\",\"0000000b\",\"0000000c\"],\"storedBytes\":300}]}");
    call(200, "POST", "/api/v1/peers/f3/leave", "{}"); // a graceful leave is repaired at once
    repair.scan();
    JsonNode first = call(200, "POST", "/api/v1/peers/f4/repair", "{}").get("jobs").get(0);
    String firstTarget = first.get("targets").get(0).get("peer").asText();
    call(200, "POST", "/api/v1/peers/f4/repaired", "{\"outcomes\":[{\"id\":\"" + first.get("id").asText()
        + "\",\"placed\":[],\"error\":\"connection refused\"}]}");
    repair.scan();
    assertThat(call(200, "GET", "/api/v1/durability", null).get("failedRepairs").asLong()).isEqualTo(1);
    assertThat(call(200, "POST", "/api/v1/peers/f4/repair", "{}").get("jobs")).as("the failed executor is avoided").isEmpty();
    String other = firstTarget.equals("f5") ? "f6" : "f5";
    JsonNode retry = call(200, "POST", "/api/v1/peers/" + other + "/repair", "{}").get("jobs").get(0);
    assertThat(retry.get("targets").get(0).get("peer").asText()).as("the failed target is avoided").isNotEqualTo(firstTarget)
        .isNotIn("f1", "f2", "f3");
    // an index entry never names a piece nobody reported stored
    assertThat(call(200, "GET", "/api/v1/manifest", Map.of("app", "heat", "node", "n1"), null, AUTH).get("chunks").get(a).get("holders").get(2)
        .get("id").asText()).as("still the departed holder until a repair reports success").isEqualTo("f3");
  }
}
