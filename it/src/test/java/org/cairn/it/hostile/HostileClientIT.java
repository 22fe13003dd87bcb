package org.cairn.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.assertj.core.api.SoftAssertions;
import org.cairn.core.api.TokenRequest;
import org.cairn.core.api.catalog.BackupRequest;
import org.cairn.core.api.catalog.ChunkLookup;
import org.cairn.core.api.catalog.FolderPolicy;
import org.cairn.core.api.member.ComputeState;
import org.cairn.core.api.member.TicketRequest;
import org.cairn.core.api.repair.BadPieces;
import org.cairn.core.security.GridToken;
import org.cairn.it.MiniGrid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hostile client, with real processes on the default (TLS) grid.
 *
 * <p><b>Attack:</b> app B stores two versions with its own client token. A client token scoped to
 * app A, once read-only and once read-write, then uses every route and ticket it can get against
 * app B: it reports 30 of B's pieces bad with their fragment keys (as a donor would know them), and
 * asks to delete B's versions, read and change B's policy, records, manifest, chunks and sets, opens
 * pending stores naming app B and naming B's chunk ids under app A (then PUTs forged pieces of B's
 * chunks to B's holders with whatever WRITE tickets that got it), asks for tickets, tokens and a
 * backup, uses and closes B's open store session, and sends compute heartbeats as B's host. Paths
 * with quotes and newlines probe the metrics.
 *
 * <p><b>Defence:</b> every call that names app B, or a session or host of B's, is refused (403, or
 * 400 where the request itself is out of bounds); a single client's bad report never drops a
 * holder; forged pieces are stored under their own keys, never in place of B's; {@code /metrics}
 * labels routes by template only.
 *
 * <p><b>Nothing lost:</b> B's compute host stays UP; afterwards every chunk of B has the same
 * holders with the same tags as before, {@code /api/v1/durability} shows nothing lost or degraded,
 * every version of B fetches byte-identical with B's token, and {@code /metrics} holds no text of
 * the attack's requests.
 */
class HostileClientIT {
  private static final String B = "appb";
  private static final int SIZE = 3 << 20;

  @TempDir
  Path root;

  private MiniGrid grid;
  private Api api;
  private String admin;

  @Test
  void aClientOfAppACannotHarmAppB() throws Exception {
    try (MiniGrid g = new MiniGrid(root, Duration.ofMillis(500))) {
      grid = g;
      List<String> args = new ArrayList<>(List.of(Hostile.tls(grid)));
      args.addAll(List.of("--peer-timeout", "60s")); // a compute host's UP lasts while the test looks
      Hostile.startGrid(grid, root, 5, args.toArray(String[]::new));
      admin = grid.token();
      api = new Api(grid.trackerUrl(), GridToken.readFile(grid.tokenFile()).caPin());
      String clientB = Hostile.token(grid, "--role", "client", "--apps", B);
      String readOnlyA = Hostile.token(grid, "--role", "client", "--apps", "appa", "--read-only");
      String writerA = Hostile.token(grid, "--role", "client", "--apps", "appa");
      Path fileB = Hostile.tokenFile(root, "clientB", clientB);

      List<Path> inputs = List.of(Hostile.randomFile(root.resolve("v1.img"), SIZE, 1), Hostile.randomFile(root.resolve("v2.img"), SIZE, 2));
      for (int step = 1; step <= 2; step++) {
        MiniGrid.Cli store = grid.cliAs(fileB, "store", inputs.get(step - 1).toString(), "--app", B, "--node", "n1",
            "--step", Integer.toString(step));
        assertThat(store.exit()).as(store.stdout() + store.stderr()).isZero();
      }
      Map<String, JsonNode> chunks = new LinkedHashMap<>();
      String host = null;
      for (int step = 1; step <= 2; step++) {
        JsonNode located = api.get("/api/v1/manifest?app=" + B + "&node=n1&step=" + step, admin).json();
        located.get("chunks").fields().forEachRemaining(e -> chunks.put(e.getKey(), e.getValue()));
        host = located.get("manifest").path("clientHost").asText("b-host");
      }
      String holdersBefore = holders();
      Api.Reply up = api.post("/api/v1/compute/" + host + "/heartbeat", new ComputeState(host, "UP"), clientB);
      assertThat(up.status()).as(up.toString()).isEqualTo(200);

      SoftAssertions softly = new SoftAssertions();
      long attackStart = System.currentTimeMillis();
      badReports(softly, chunks, writerA, readOnlyA);
      for (String attacker : List.of(readOnlyA, writerA)) {
        boolean readOnly = attacker.equals(readOnlyA);
        routes(softly, chunks, attacker);
        pendingAndPuts(softly, chunks, attacker, readOnly);
        session(softly, attacker, clientB, chunks.keySet().iterator().next());
        computeAsB(softly, host, attacker, clientB);
      }
      collusion(softly, chunks, writerA, readOnlyA);
      metricsProbes(attackStart, writerA);

      afterwards(softly, holdersBefore, attackStart);
      for (int step = 1; step <= 2; step++) {
        Path out = root.resolve("fetched-" + step + ".img");
        MiniGrid.Cli fetch = grid.cliAs(fileB, "fetch", "--app", B, "--node", "n1", "--step", Integer.toString(step), "-o", out.toString());
        softly.assertThat(fetch.exit()).as("B's version %d fetches after the attack: %s", step, fetch.stderr()).isZero();
        softly.assertThat(Files.exists(out) && Files.mismatch(inputs.get(step - 1), out) == -1)
            .as("B's version %d is byte-identical after the attack", step).isTrue();
      }
      String metrics = api.get("/metrics", admin).body();
      for (String text : List.of("x\"", "evil", "injected", "hostile-", chunks.keySet().iterator().next().substring(0, 16))) {
        softly.assertThat(metrics).as("/metrics holds no request text (%s)", text).doesNotContain(text);
      }
      softly.assertAll();
    }
  }

  /** Each chunk of B with its holders and tags, from the admin's manifest. */
  private String holders() throws Exception {
    Map<String, String> all = new TreeMap<>();
    for (int step = 1; step <= 2; step++) {
      api.get("/api/v1/manifest?app=" + B + "&node=n1&step=" + step, admin).json().get("chunks").fields()
          .forEachRemaining(e -> all.put(e.getKey(), e.getValue().get("holders").toString()));
    }
    return all.toString();
  }

  /** B's fragment keys by holder: chunk id, piece index and tag, hex. */
  private static Map<String, List<String>> fragmentKeys(Map<String, JsonNode> chunks) {
    Map<String, List<String>> byHolder = new LinkedHashMap<>();
    chunks.forEach((hex, c) -> {
      JsonNode holders = c.get("holders");
      for (int i = 0; i < holders.size(); i++) {
        JsonNode h = holders.get(i);
        if (!h.isNull()) {
          String key = hex + HexFormat.of().toHexDigits((byte) i) + h.get("tag").asText();
          byHolder.computeIfAbsent(h.get("id").asText(), k -> new ArrayList<>()).add(key);
        }
      }
    });
    return byHolder;
  }

  /** 30 bad reports of B's pieces, each on the holder's route, by A's clients. */
  private void badReports(SoftAssertions softly, Map<String, JsonNode> chunks, String writerA, String readOnlyA) throws Exception {
    int sent = 0;
    for (Map.Entry<String, List<String>> h : fragmentKeys(chunks).entrySet()) {
      for (String key : h.getValue()) {
        if (sent == 30) {
          return;
        }
        String attacker = sent % 2 == 0 ? writerA : readOnlyA;
        BadPieces report = new BadPieces(null, List.of(new BadPieces.Piece(key, "corrupt")));
        expect(softly, api.post("/api/v1/peers/" + h.getKey() + "/bad", report, attacker), 403);
        sent++;
      }
    }
    softly.assertThat(sent).as("bad reports sent").isEqualTo(30);
  }

  /**
   * Two of app A's tokens together: one opens a store session of app A naming B's chunk ids (so A's scope now references
   * those chunks), then both report every piece of B bad, each a second, independent reporter for the other. Whatever the
   * tracker answers, it may drop holders only in entries of apps both reporters may speak for, so B's entries keep theirs
   * ({@link #afterwards} checks).
   */
  private void collusion(SoftAssertions softly, Map<String, JsonNode> chunks, String writerA, String readOnlyA) throws Exception {
    List<String> hosts = new ArrayList<>(new LinkedHashSet<>(fragmentKeys(chunks).keySet()));
    Api.Reply opened = api.post("/api/v1/stores/hostile-collude/pending", pending("appa", new ArrayList<>(chunks.keySet()), hosts),
        writerA);
    System.out.println("HostileClientIT: collusion's session: " + opened.status());
    for (Map.Entry<String, List<String>> h : fragmentKeys(chunks).entrySet()) {
      for (String attacker : List.of(writerA, readOnlyA)) {
        List<BadPieces.Piece> pieces = h.getValue().stream().map(k -> new BadPieces.Piece(k, "corrupt")).toList();
        Api.Reply r = api.post("/api/v1/peers/" + h.getKey() + "/bad", new BadPieces(null, pieces), attacker);
        softly.assertThat(r.status()).as("a colluding report is answered, not a server error: %s", r).isIn(200, 403);
        if (r.status() == 200) {
          softly.assertThat(r.json().path("changed").asInt()).as("B's entries forget no holder: %s", r).isZero();
        }
      }
    }
    api.call("DELETE", "/api/v1/stores/hostile-collude", null, writerA);
  }

  /** The routes that name app B, and the admin's routes. */
  private void routes(SoftAssertions softly, Map<String, JsonNode> chunks, String attacker) throws Exception {
    List<String> ids = new ArrayList<>(chunks.keySet());
    String holder = chunks.values().iterator().next().get("holders").get(0).get("id").asText();
    expect(softly, api.call("DELETE", "/api/v1/versions?app=" + B + "&node=n1&step=1", null, attacker), 403);
    expect(softly, api.get("/api/v1/versions?app=" + B + "&node=n1", attacker), 403);
    expect(softly, api.get("/api/v1/policy?app=" + B, attacker), 403);
    expect(softly, api.post("/api/v1/policy", new FolderPolicy(B, "/tmp/hostile"), attacker), 403);
    expect(softly, api.get("/api/v1/records?app=" + B + "&node=n1&step=1", attacker), 403);
    expect(softly, api.post("/api/v1/records", "{\"app\":\"" + B + "\",\"node\":\"n1\",\"step\":1,\"chunk\":null}", attacker), 403);
    expect(softly, api.get("/api/v1/manifest?app=" + B + "&node=n1", attacker), 403);
    expect(softly, api.get("/api/v1/manifest?app=" + B + "&node=n1&step=1&holders=none", attacker), 403);
    expect(softly, api.get("/api/v1/chunks?app=" + B, attacker), 403);
    expect(softly, api.post("/api/v1/chunks/lookup", new ChunkLookup(B, ids), attacker), 403);
    expect(softly, api.get("/api/v1/sets?app=" + B + "&node=n1", attacker), 403);
    expect(softly, api.post("/api/v1/tickets", new TicketRequest("READ", holder, ids, null), attacker), 403);
    expect(softly, api.post("/api/v1/tickets", new TicketRequest("WRITE", holder, ids, null), attacker), 403);
    expect(softly, api.post("/api/v1/tokens", new TokenRequest("admin", null, false, null, null, "hostile"), attacker), 403);
    expect(softly, api.post("/api/v1/tokens", new TokenRequest("client", List.of(B), false, null, null, "hostile"), attacker), 403);
    expect(softly, api.post("/api/v1/backup", new BackupRequest(root.resolve("stolen").toString()), attacker), 403);
  }

  /**
   * Pending stores naming app B (refused), too many ids (400), and B's chunk ids under app A: with
   * whatever WRITE tickets those got, forged pieces of B's chunks go to B's holders.
   */
  private void pendingAndPuts(SoftAssertions softly, Map<String, JsonNode> chunks, String attacker, boolean readOnly) throws Exception {
    List<String> ids = new ArrayList<>(chunks.keySet());
    List<String> hosts = new ArrayList<>(new LinkedHashSet<>(fragmentKeys(chunks).keySet()));
    List<JsonNode> tickets = new ArrayList<>();
    Api.Reply naming = api.post("/api/v1/stores/hostile-b/pending", pending(B, ids, hosts), attacker);
    expect(softly, naming, 403);
    collect(naming, tickets);
    List<String> many = new ArrayList<>();
    for (int i = 0; i <= org.cairn.core.api.catalog.PendingRequest.MAX_CHUNKS; i++) {
      many.add(String.format("%064x", i));
    }
    expect(softly, api.post("/api/v1/stores/hostile-many/pending", pending("appa", many, List.of()), attacker),
        readOnly ? 403 : 400);
    while (many.size() <= 100_000) {
      many.add(String.format("%064x", many.size()));
    }
    expect(softly, api.post("/api/v1/stores/hostile-huge/pending", pending("appa", many, List.of()), attacker), 413);
    Api.Reply underA = api.post("/api/v1/stores/hostile-a/pending", pending("appa", ids, hosts), attacker);
    System.out.println("HostileClientIT: B's chunk ids under app A: " + underA);
    collect(underA, tickets);
    if (!tickets.isEmpty()) {
      ForgedPieces.put(api, attacker, chunks, tickets, grid.trackerUrl().startsWith("https://")
          ? GridToken.readFile(grid.tokenFile()).caPin() : java.util.Optional.empty());
    }
    api.call("DELETE", "/api/v1/stores/hostile-a", null, attacker);
    api.call("DELETE", "/api/v1/stores/hostile-b", null, attacker);
  }

  private static Map<String, Object> pending(String app, List<String> chunks, List<String> hosts) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("app", app);
    body.put("chunks", chunks);
    body.put("hosts", hosts);
    return body;
  }

  private static void collect(Api.Reply reply, List<JsonNode> tickets) throws Exception {
    if (reply.status() == 200) {
      reply.json().path("tickets").forEach(tickets::add);
    }
  }

  /** B's store in flight: A may neither use nor close its session. */
  private void session(SoftAssertions softly, String attacker, String clientB, String chunk) throws Exception {
    String session = "b-session-" + Math.abs(attacker.hashCode());
    Api.Reply open = api.post("/api/v1/stores/" + session + "/pending", pending(B, List.of(chunk), List.of()), clientB);
    softly.assertThat(open.status()).as("B opens its own session: %s", open).isEqualTo(200);
    expect(softly, api.post("/api/v1/stores/" + session + "/pending", pending("appa", List.of(), List.of()), attacker), 403);
    expect(softly, api.call("DELETE", "/api/v1/stores/" + session, null, attacker), 403);
    Api.Reply close = api.call("DELETE", "/api/v1/stores/" + session, null, clientB);
    softly.assertThat(close.status()).as("B closes its own session: %s", close).isEqualTo(200);
  }

  /**
   * A compute heartbeat claiming B's host is DOWN, right after B's own UP (a host's state lasts a
   * peer timeout, which this grid makes long): refused, or at least B's host stays UP.
   */
  private void computeAsB(SoftAssertions softly, String host, String attacker, String clientB) throws Exception {
    api.post("/api/v1/compute/" + host + "/heartbeat", new ComputeState(host, "UP"), clientB);
    Api.Reply down = api.post("/api/v1/compute/" + host + "/heartbeat", new ComputeState(host, "DOWN"), attacker);
    System.out.println("HostileClientIT: " + down);
    if (down.status() != 403) {
      JsonNode states = api.get("/api/v1/compute", admin).json();
      softly.assertThat(states.path(host).asBoolean(false)).as("B's host is UP after %s (refused with 403, or harmless): %s", down, states)
          .isTrue();
    }
  }

  /** Requests whose paths carry quotes, newlines and would-be metric lines. */
  private void metricsProbes(long since, String attacker) throws Exception {
    api.get("/api/v1/x%22%0Ay", attacker);
    api.get("/api/v1/x%22%0Ainjected_total%201", attacker);
    api.post("/api/v1/peers/p/evil%22%0Ainjected_total%201", "{}", attacker);
    api.post("/api/v1/peers/p/bad/evil%22", "{}", attacker);
    api.get("/api/v1/x%22%0Ay", null);
  }

  /** After the attack: same holders, nothing lost or degraded (after a scan). */
  private void afterwards(SoftAssertions softly, String holdersBefore, long attackStart) throws Exception {
    softly.assertThat(holders()).as("every chunk of B keeps its holders and tags").isEqualTo(holdersBefore);
    long attackEnd = System.currentTimeMillis();
    MiniGrid.await("a durability scan after the attack", Duration.ofSeconds(60),
        () -> api.get("/api/v1/durability", admin).json().path("scannedAt").asLong() > attackEnd);
    JsonNode d = api.get("/api/v1/durability", admin).json();
    softly.assertThat(d.path("lost").asLong()).as("chunks lost: %s", d).isZero();
    softly.assertThat(d.path("degraded").asLong()).as("chunks degraded: %s", d).isZero();
    for (JsonNode l : d.path("latest")) {
      if (B.equals(l.path("app").asText())) {
        softly.assertThat(l.path("restorable").asBoolean()).as("B's latest restorable: %s", l).isTrue();
      }
    }
    System.out.println("HostileClientIT: attack from " + attackStart + " to " + attackEnd + "; durability " + d);
  }

  private static void expect(SoftAssertions softly, Api.Reply reply, int status) {
    System.out.println("HostileClientIT: " + reply);
    softly.assertThat(reply.status()).as("%s is refused", reply).isEqualTo(status);
  }
}
