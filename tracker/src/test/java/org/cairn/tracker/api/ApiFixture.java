package org.cairn.tracker.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.cairn.core.availability.Crls;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.security.GridToken;
import org.cairn.tracker.MutableClock;
import org.cairn.tracker.api.call.Metrics;
import org.cairn.tracker.api.call.Response;
import org.cairn.tracker.auth.Credentials;
import org.cairn.tracker.auth.Role;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.history.History;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.placement.PlacementService;
import org.cairn.tracker.repair.RepairService;
import org.cairn.tracker.store.TrackerStore;

/**
 * A tracker's API without a network for the endpoint table's tests: real RocksDB and token files in
 * {@code dir}, a clock moved by hand, two peers ({@link #X}, {@link #Y}, each with its own credential),
 * and a committed version of app {@link #A} whose one chunk ({@link #chunkA}) peer X holds.
 */
final class ApiFixture implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String A = "heat";
  static final String B = "wrf";
  static final String X = "px";
  static final String Y = "py";

  final MutableClock clock = new MutableClock(1_800_000_000_000L);
  final TrackerStore store;
  final Credentials credentials;
  final Catalog catalog;
  final EventLog events;
  final TrackerApi api;
  final String admin;
  final String peerX;
  final String peerY;
  final String chunkA = ChunkId.of(new byte[] {7}).hex();
  final String chunkB = ChunkId.of(new byte[] {8}).hex();

  ApiFixture(Path dir) throws IOException {
    store = TrackerStore.open(dir.resolve("db"));
    Membership membership = new Membership(store, clock, Duration.ofSeconds(3));
    History history = new History(store, clock, Duration.ofMinutes(1), Duration.ofDays(14));
    PlacementService placement = new PlacementService(store, membership, history, clock, Crls.defaults(), Duration.ofDays(7),
        Duration.ofSeconds(10));
    events = new EventLog(clock, 1000);
    catalog = new Catalog(store, clock, events);
    RepairService repair = new RepairService(catalog, membership, placement, events, clock,
        new RepairService.Config(Duration.ofMinutes(10), Duration.ofSeconds(1), 4, Duration.ofMinutes(2)));
    credentials = Credentials.open(dir.resolve("auth"), null, clock);
    api = new TrackerApi(credentials, membership, history, placement, new Metrics(() -> TrackerApi.countByState(membership.peers())),
        clock, Duration.ofSeconds(1), Crls.defaults(), catalog, repair, events);
    admin = GridToken.readFile(dir.resolve("auth/admin.token")).bearerValue();
    String donor = issue(Role.DONOR, null, false, 10);
    peerX = call("fixture", "POST", "/api/v1/peers", Map.of(), registration(X), donor, 200)
        .get("credential").asText();
    peerY = call("fixture", "POST", "/api/v1/peers", Map.of(), registration(Y), donor, 200).get("credential").asText();
    call("fixture", "POST", "/api/v1/versions", Map.of(), commit(A, chunkA), admin, 200);
    call("fixture", "POST", "/api/v1/versions", Map.of(), commit(B, chunkB), admin, 200);
  }

  String issue(Role role, List<String> apps, boolean readOnly, Integer uses) throws IOException {
    return credentials.tokens().issue(role, apps, readOnly, null, uses, null, "test", clock.millis());
  }

  static String registration(String id) {
    return "{\"id\":\"" + id + "\",\"address\":\"127.0.0.1:" + (9000 + Math.abs(id.hashCode() % 999)) + "\",\"state\":\"RUNNING\","
        + "\"freeBytes\":1000000000,\"quotaBytes\":2000000000}";
  }

  /** A commit of app/n1 whose one chunk peer X holds three pieces of. */
  String commit(String app, String chunk) {
    String manifest = "{\"schemaVersion\":1,\"app\":\"" + app + "\",\"node\":\"n1\",\"step\":0,\"size\":100,\"chunkSize\":100,"
        + "\"redundancy\":\"code:2+1\",\"compression\":\"auto\",\"createdAt\":5,\"chunks\":[{\"id\":\"" + chunk + "\",\"length\":100}]}";
    return "{\"manifest\":" + manifest + ",\"chunks\":[{\"id\":\"" + chunk + "\",\"holders\":[\"" + X + "\",\"" + X + "\",\"" + X
        + "\"],\"tags\":[\"0000000a\",\"0000000b\",\"0000000c\"],\"storedBytes\":300}]}";
  }

  /** A fragment key (hex) of {@code chunk}: index 0, tag 0000000a. */
  static String fragment(String chunk) {
    return chunk + "00" + "0000000a";
  }

  Response handle(String method, String path, Map<String, String> query, String body, String token) {
    return api.handle(method, path, query, body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8),
        token == null ? null : "Bearer " + token);
  }

  /** A call that must answer {@code expected}; its JSON answer. */
  JsonNode call(String why, String method, String path, Map<String, String> query, String body, String token, int expected)
      throws IOException {
    Response r = handle(method, path, query, body, token);
    String text = new String(r.body(), StandardCharsets.UTF_8);
    if (r.status() != expected) {
      throw new AssertionError(why + ": " + method + " " + path + " answered " + r.status() + ", expected " + expected + ": " + text);
    }
    return r.contentType().startsWith("application/json") ? JSON.readTree(text) : null;
  }

  @Override
  public void close() {
    store.close();
  }
}
