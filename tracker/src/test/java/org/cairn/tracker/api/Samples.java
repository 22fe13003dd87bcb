package org.cairn.tracker.api;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.cairn.core.api.Endpoint;
import org.cairn.core.api.Endpoints;

/**
 * A valid request for every endpoint of the table, on the fixture's data: app {@link ApiFixture#A},
 * its chunk, the peer the call acts on. An endpoint added to the table without a sample here fails
 * the table's tests.
 */
final class Samples {
  /** One request: its path, query parameters and body (null: none). */
  record Sample(String path, Map<String, String> query, String body) {}

  /** What a sample is made for: the fixture, the peer the call acts on, a number unique to the call. */
  record Ctx(ApiFixture f, String peer, int n) {}

  private static final Map<Endpoint<?, ?>, Function<Ctx, Sample>> SAMPLES = new HashMap<>();

  static {
    put(Endpoints.PAGE, c -> get("/"));
    put(Endpoints.PAGE_INDEX, c -> get("/index.html"));
    put(Endpoints.PAGE_ASSET, c -> get("/ui/app.js"));
    put(Endpoints.METRICS, c -> get("/metrics"));
    put(Endpoints.HEALTH, c -> get(Endpoints.HEALTH.path()));
    put(Endpoints.CLUSTER, c -> get(Endpoints.CLUSTER.path()));
    put(Endpoints.DATAPLANE, c -> get(Endpoints.DATAPLANE.path()));
    put(Endpoints.BACKUP, c -> post(Endpoints.BACKUP.path(), "{\"to\":\"/nonexistent/backup-" + c.n() + "\"}"));
    put(Endpoints.TOKENS, c -> post(Endpoints.TOKENS.path(), "{\"role\":\"client\",\"apps\":[\"" + ApiFixture.A + "\"]}"));
    put(Endpoints.CAPACITY, c -> get(Endpoints.CAPACITY.path(), "window", "1h"));
    put(Endpoints.DURABILITY, c -> get(Endpoints.DURABILITY.path()));
    put(Endpoints.EVENTS, c -> get(Endpoints.EVENTS.path(), "after", "0"));
    put(Endpoints.APPS, c -> get(Endpoints.APPS.path()));
    put(Endpoints.PEERS, c -> get(Endpoints.PEERS.path()));
    put(Endpoints.REGISTER, c -> post(Endpoints.REGISTER.path(), ApiFixture.registration(c.peer() == null ? "n" + c.n() : c.peer())));
    put(Endpoints.PEER, c -> get(Endpoints.PEER.path(peer(c))));
    put(Endpoints.PEER_HISTORY, c -> get(Endpoints.PEER_HISTORY.path(peer(c)), "window", "1h"));
    put(Endpoints.HEARTBEAT, c -> post(Endpoints.HEARTBEAT.path(peer(c)), "{\"state\":\"RUNNING\",\"freeBytes\":1000}"));
    put(Endpoints.LEAVE, c -> post(Endpoints.LEAVE.path(peer(c)), "{}"));
    put(Endpoints.INVENTORY, c -> post(Endpoints.INVENTORY.path(peer(c)), "{\"keys\":[\"" + ApiFixture.fragment(c.f().chunkA) + "\"]}"));
    put(Endpoints.REPAIR_CLAIM, c -> post(Endpoints.REPAIR_CLAIM.path(peer(c)), "{\"max\":1}"));
    put(Endpoints.REPAIRED, c -> post(Endpoints.REPAIRED.path(peer(c)), "{\"outcomes\":[]}"));
    put(Endpoints.ASSIGNED, c -> get(Endpoints.ASSIGNED.path(peer(c)), "limit", "10"));
    put(Endpoints.BAD, c -> post(Endpoints.BAD.path(peer(c)), "{\"reporter\":\"test\",\"fragments\":[{\"key\":\""
        + ApiFixture.fragment(c.f().chunkA) + "\",\"reason\":\"checksum\"}]}"));
    put(Endpoints.COMPUTE, c -> get(Endpoints.COMPUTE.path()));
    put(Endpoints.COMPUTE_HEARTBEAT, c -> post(Endpoints.COMPUTE_HEARTBEAT.path("c" + c.n()), "{\"state\":\"UP\"}"));
    put(Endpoints.COMPUTE_HISTORY, c -> get(Endpoints.COMPUTE_HISTORY.path("c1"), "window", "1h"));
    put(Endpoints.AVAILABILITY, c -> get(Endpoints.AVAILABILITY.path(), "storage", ApiFixture.X, "compute", "c1"));
    put(Endpoints.BANDWIDTH, c -> post(Endpoints.BANDWIDTH.path(), "{\"client\":\"c1\",\"peer\":\"px\",\"bytesPerSecond\":1e6}"));
    put(Endpoints.PLACEMENT, c -> post(Endpoints.PLACEMENT.path(), "{\"client\":\"c1\",\"imageBytes\":1000,\"m\":1,\"k\":0}"));
    put(Endpoints.CHUNKS, c -> get(Endpoints.CHUNKS.path(), "app", ApiFixture.A));
    put(Endpoints.CHUNK_LOOKUP, c -> post(Endpoints.CHUNK_LOOKUP.path(), "{\"app\":\"" + ApiFixture.A + "\",\"ids\":[\"" + c.f().chunkA
        + "\"]}"));
    put(Endpoints.PENDING, c -> post(Endpoints.PENDING.path("s" + c.n()), "{\"app\":\"" + ApiFixture.A + "\",\"chunks\":[\""
        + c.f().chunkA + "\"],\"hosts\":[\"" + ApiFixture.X + "\"]}"));
    put(Endpoints.ABANDON, c -> new Sample(Endpoints.ABANDON.path("s" + c.n()), Map.of(), null));
    put(Endpoints.MANIFEST, c -> get(Endpoints.MANIFEST.path(), "app", ApiFixture.A, "node", "n1"));
    put(Endpoints.TICKETS, c -> post(Endpoints.TICKETS.path(), "{\"op\":\"READ\",\"peer\":\"px\",\"chunks\":[\"" + c.f().chunkA + "\"]}"));
    put(Endpoints.VERSIONS, c -> get(Endpoints.VERSIONS.path(), "app", ApiFixture.A, "node", "n1"));
    put(Endpoints.COMMIT, c -> post(Endpoints.COMMIT.path(), c.f().commit(ApiFixture.A, c.f().chunkA)));
    put(Endpoints.DELETE_VERSION, c -> new Sample(Endpoints.DELETE_VERSION.path(), Map.of("app", ApiFixture.A, "node", "n1", "step", "99"),
        null));
    put(Endpoints.RECORD, c -> get(Endpoints.RECORD.path(), "app", ApiFixture.A, "node", "n1", "step", "1"));
    put(Endpoints.ATTACH_RECORD, c -> post(Endpoints.ATTACH_RECORD.path(), "{\"app\":\"" + ApiFixture.A + "\",\"node\":\"n1\",\"step\":1,"
        + "\"chunk\":{\"id\":\"" + c.f().chunkA + "\"}}"));
    put(Endpoints.SETS, c -> get(Endpoints.SETS.path(), "app", ApiFixture.A, "node", "n1"));
    put(Endpoints.POLICY, c -> get(Endpoints.POLICY.path(), "app", ApiFixture.A));
    put(Endpoints.SET_POLICY, c -> post(Endpoints.SET_POLICY.path(), "{\"app\":\"" + ApiFixture.A + "\",\"folder\":\"keep-all\"}"));
  }

  private Samples() {}

  private static void put(Endpoint<?, ?> e, Function<Ctx, Sample> sample) {
    SAMPLES.put(e, sample);
  }

  /** The sample request for {@code e}, or null when it has none. */
  static Sample of(Endpoint<?, ?> e, Ctx c) {
    Function<Ctx, Sample> s = SAMPLES.get(e);
    return s == null ? null : s.apply(c);
  }

  private static String peer(Ctx c) {
    return c.peer() == null ? ApiFixture.X : c.peer();
  }

  private static Sample get(String path, String... query) {
    Map<String, String> q = new LinkedHashMap<>();
    for (int i = 0; i < query.length; i += 2) {
      q.put(query[i], query[i + 1]);
    }
    return new Sample(path, q, null);
  }

  private static Sample post(String path, String body) {
    return new Sample(path, Map.of(), body);
  }
}
