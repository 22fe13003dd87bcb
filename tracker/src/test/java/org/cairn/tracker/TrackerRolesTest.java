package org.cairn.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.cairn.core.availability.Crls;
import org.cairn.core.security.GridToken;
import org.cairn.tracker.api.TrackerApi;
import org.cairn.tracker.api.call.Metrics;
import org.cairn.tracker.auth.Credentials;
import org.cairn.tracker.auth.Role;
import org.cairn.tracker.auth.TokenStore;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.history.History;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.placement.PlacementService;
import org.cairn.tracker.repair.RepairService;
import org.cairn.tracker.store.TrackerStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Roles and credentials at the API: what an admin, a scoped client, a donor enrollment token
 * and a peer's own credential may call. Real RocksDB and real token files; the clock moves by hand.
 */
class TrackerRolesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private final MutableClock clock = new MutableClock(1_800_000_000_000L);
  private TrackerStore store;
  private Credentials credentials;
  private TrackerApi api;
  private String admin;

  @BeforeEach
  void open() throws IOException {
    store = TrackerStore.open(dir.resolve("db"));
    Membership membership = new Membership(store, clock, Duration.ofSeconds(3));
    History history = new History(store, clock, Duration.ofMinutes(1), Duration.ofDays(14));
    PlacementService placement = new PlacementService(store, membership, history, clock, Crls.defaults(), Duration.ofDays(7),
        Duration.ofSeconds(10));
    EventLog events = new EventLog(clock, 100);
    Catalog catalog = new Catalog(store, clock, events);
    RepairService repair = new RepairService(catalog, membership, placement, events, clock,
        new RepairService.Config(Duration.ofMinutes(10), Duration.ofSeconds(1), 4, Duration.ofMinutes(2)));
    credentials = Credentials.open(dir.resolve("auth"), null, clock);
    api = new TrackerApi(credentials, membership, history, placement, new Metrics(() -> TrackerApi.countByState(membership.peers())),
        clock, Duration.ofSeconds(1), Crls.defaults(), catalog, repair, events);
    admin = GridToken.readFile(dir.resolve("auth/admin.token")).bearerValue();
  }

  @AfterEach
  void close() {
    store.close();
  }

  private JsonNode call(int expected, String method, String path, Map<String, String> query, String body, String token)
      throws IOException {
    var r = api.handle(method, path, query, body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8),
        token == null ? null : "Bearer " + token);
    String text = new String(r.body(), StandardCharsets.UTF_8);
    assertThat(r.status()).as("%s %s -> %s", method, path, text).isEqualTo(expected);
    return r.contentType().startsWith("application/json") ? JSON.readTree(text) : null;
  }

  private String issue(Role role, List<String> apps, boolean readOnly, Long expires, Integer uses) throws IOException {
    return credentials.tokens().issue(role, apps, readOnly, expires, uses, null, "test", clock.millis());
  }

  private static String registration(String id) {
    return "{\"id\":\"" + id + "\",\"address\":\"127.0.0.1:" + (10000 + Math.floorMod(id.hashCode(), 50000)) + "\",\"state\":\"RUNNING\",\"freeBytes\":1000000000}";
  }

  @Test
  void firstStart_writesAnAdminTokenOnlyItsOwnerCanRead() throws IOException {
    Path f = dir.resolve("auth/admin.token");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
    assertThat(admin).startsWith(TokenStore.PREFIX);
    call(200, "GET", "/api/v1/peers", Map.of(), null, admin);
    // a second start keeps the same admin token
    Credentials again = Credentials.open(dir.resolve("auth"), null, clock);
    assertThat(GridToken.readFile(f).bearerValue()).isEqualTo(admin);
    assertThat(again.authenticate("Bearer " + admin)).hasValueSatisfying(p -> assertThat(p.role()).isEqualTo(Role.ADMIN));
  }

  @Test
  void tokenFiles_holdOnlyTheSecretsHash() throws IOException {
    String client = issue(Role.CLIENT, List.of("heat"), false, null, null);
    // the secret's last 24 characters (a base64url secret can itself hold '_', so not "what follows the last '_'")
    String secret = client.substring(client.length() - 24);
    try (Stream<Path> files = Files.walk(dir.resolve("auth/tokens"))) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        assertThat(Files.readString(f)).as("%s", f).doesNotContain(secret);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
      }
    }
    assertThat(credentials.tokens().list()).allSatisfy(r -> assertThat(r.hash()).isNull());
  }

  @Test
  void peersList_isForbiddenToADonor_andOpenToClientsAndTheAdmin() throws IOException {
    String donor = issue(Role.DONOR, null, false, null, null);
    String client = issue(Role.CLIENT, null, false, null, null);
    assertThat(call(403, "GET", "/api/v1/peers", Map.of(), null, donor).get("error").asText()).contains("donor credential")
        .doesNotContain(donor.substring(22));
    call(200, "GET", "/api/v1/peers", Map.of(), null, client);
    call(200, "GET", "/api/v1/peers", Map.of(), null, admin);
    // nothing a client may call is open to a donor
    for (String[] route : new String[][] {{"GET", "/api/v1/versions"}, {"GET", "/api/v1/apps"}, {"GET", "/api/v1/manifest"},
        {"POST", "/api/v1/placement"}, {"GET", "/api/v1/dataplane"}, {"DELETE", "/api/v1/versions"}, {"POST", "/api/v1/policy"},
        {"GET", "/metrics"}}) {
      call(403, route[0], route[1], Map.of("app", "heat"), "{}", donor);
    }
  }

  @Test
  void aDonorJoins_getsItsOwnCredential_andMayActOnlyAsItself() throws IOException {
    String donor = issue(Role.DONOR, null, false, null, 2);
    JsonNode joined = call(200, "POST", "/api/v1/peers", Map.of(), registration("d1"), donor);
    String own = joined.get("credential").asText();
    assertThat(own).startsWith(TokenStore.PREFIX);
    assertThat(joined.get("dataKey").asText()).isEqualTo(credentials.dataKey().bearerValue());
    String d2 = call(200, "POST", "/api/v1/peers", Map.of(), registration("d2"), donor).get("credential").asText();
    assertThat(d2).isNotEqualTo(own);
    call(200, "POST", "/api/v1/peers/d2/heartbeat", Map.of(), "{\"state\":\"RUNNING\"}", d2);

    call(200, "POST", "/api/v1/peers/d1/heartbeat", Map.of(), "{\"state\":\"RUNNING\"}", own);
    call(200, "POST", "/api/v1/peers", Map.of(), registration("d1"), own);
    // a peer heartbeating, leaving or reporting as another peer is refused
    assertThat(call(403, "POST", "/api/v1/peers/d2/heartbeat", Map.of(), "{\"state\":\"DOWN\"}", own).get("error").asText())
        .contains("may act only as peer d1");
    call(403, "POST", "/api/v1/peers/d2/leave", Map.of(), "{}", own);
    call(403, "POST", "/api/v1/peers", Map.of(), registration("d2"), own);
    // the enrollment token only registers: it cannot heartbeat, even for the peer it enrolled
    call(403, "POST", "/api/v1/peers/d1/heartbeat", Map.of(), "{\"state\":\"RUNNING\"}", donor);
    // nor take over an existing peer's id
    call(403, "POST", "/api/v1/peers", Map.of(), registration("d1"), issue(Role.DONOR, null, false, null, null));
    // a peer credential calls nothing a client can
    call(403, "GET", "/api/v1/peers", Map.of(), null, own);
    call(403, "GET", "/api/v1/versions", Map.of("app", "heat"), null, own);
    call(403, "GET", "/api/v1/dataplane", Map.of(), null, own);
    // the enrollment token had two uses
    assertThat(call(403, "POST", "/api/v1/peers", Map.of(), registration("d3"), donor).get("error").asText())
        .contains("no registrations left");
  }

  private static java.security.KeyPair p256() throws java.security.GeneralSecurityException {
    java.security.KeyPairGenerator g = java.security.KeyPairGenerator.getInstance("EC");
    g.initialize(new java.security.spec.ECGenParameterSpec("secp256r1"));
    return g.generateKeyPair();
  }

  private static String keyed(String id, java.security.KeyPair key, java.security.KeyPair signer, long at) throws IOException {
    String pub = java.util.Base64.getEncoder().encodeToString(key.getPublic().getEncoded());
    com.fasterxml.jackson.databind.node.ObjectNode r = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(registration(id));
    r.put("publicKey", pub);
    if (signer != null) {
      r.put("proof", org.cairn.core.security.RegistrationProof.sign(signer.getPrivate(), id, r.get("address").asText(), pub, at));
      r.put("proofAt", at);
    }
    return JSON.writeValueAsString(r);
  }

  @Test
  void aDonorWhoseRegistrationAnswerWasLost_registersAgainByProvingItsKey_andTheLostCredentialIsRevoked() throws Exception {
    String donor = issue(Role.DONOR, null, false, null, 2);
    java.security.KeyPair key = p256();
    String lost = call(200, "POST", "/api/v1/peers", Map.of(), keyed("d1", key, null, 0), donor).get("credential").asText();
    // the answer never reached the peer: it tries again with the enrollment token, proving its key
    String now = call(200, "POST", "/api/v1/peers", Map.of(), keyed("d1", key, key, clock.millis()), donor).get("credential").asText();
    assertThat(now).isNotEqualTo(lost).startsWith(TokenStore.PREFIX);
    call(200, "POST", "/api/v1/peers/d1/heartbeat", Map.of(), "{\"state\":\"RUNNING\"}", now);
    assertThat(call(401, "POST", "/api/v1/peers/d1/heartbeat", Map.of(), "{\"state\":\"RUNNING\"}", lost).get("error").asText())
        .contains("revoked");
    // no use was spent again: the token's second use still enrolls a new peer
    call(200, "POST", "/api/v1/peers", Map.of(), keyed("d2", p256(), null, 0), donor);
  }

  @Test
  void anotherDonor_cannotTakeOverAKnownPeer_withoutItsPrivateKey() throws Exception {
    java.security.KeyPair key = p256();
    call(200, "POST", "/api/v1/peers", Map.of(), keyed("d1", key, null, 0), issue(Role.DONOR, null, false, null, null));
    String stranger = issue(Role.DONOR, null, false, null, 5);
    java.security.KeyPair own = p256();
    long at = clock.millis();
    // its own key, signed by itself: not the key d1 registered with
    assertThat(call(403, "POST", "/api/v1/peers", Map.of(), keyed("d1", own, own, at), stranger).get("error").asText())
        .contains("already registered").contains("not the one peer d1 registered with");
    // d1's public key (it is in d1's certificate), without a proof, or with a proof by another key
    call(403, "POST", "/api/v1/peers", Map.of(), keyed("d1", key, null, at), stranger);
    call(403, "POST", "/api/v1/peers", Map.of(), keyed("d1", key, own, at), stranger);
    // a proof of d1's key made for another peer's id does not pass for d1
    String forD9 = keyed("d9", key, key, at);
    call(403, "POST", "/api/v1/peers", Map.of(), forD9.replace("\"d9\"", "\"d1\""), stranger);
    // a proof signed long ago
    call(403, "POST", "/api/v1/peers", Map.of(), keyed("d1", key, key, at - java.time.Duration.ofMinutes(6).toMillis()), stranger);
    // and a proof taken once cannot be replayed
    String proven = keyed("d1", key, key, at);
    call(200, "POST", "/api/v1/peers", Map.of(), proven, stranger);
    assertThat(call(403, "POST", "/api/v1/peers", Map.of(), proven, stranger).get("error").asText()).contains("taken already");
    // none of the refusals spent a use of the stranger's token: the proof spent none either
    for (int i = 0; i < 5; i++) {
      call(200, "POST", "/api/v1/peers", Map.of(), keyed("n" + i, p256(), null, 0), stranger);
    }
    call(403, "POST", "/api/v1/peers", Map.of(), keyed("n5", p256(), null, 0), stranger);
  }

  @Test
  void aClientScopedToOneApp_cannotTouchAnother_andReadOnlyCannotWrite() throws IOException {
    String heat = issue(Role.CLIENT, List.of("heat", "lbm*"), false, null, null);
    call(200, "GET", "/api/v1/versions", Map.of("app", "heat", "node", "n"), null, heat);
    call(200, "GET", "/api/v1/versions", Map.of("app", "lbm-2", "node", "n"), null, heat);
    assertThat(call(403, "GET", "/api/v1/versions", Map.of("app", "wrf", "node", "n"), null, heat).get("error").asText())
        .contains("may not touch app wrf");
    call(403, "DELETE", "/api/v1/versions", Map.of("app", "wrf", "node", "n"), null, heat);
    call(403, "POST", "/api/v1/chunks/lookup", Map.of(), "{\"app\":\"wrf\",\"ids\":[]}", heat);
    call(403, "GET", "/api/v1/policy", Map.of("app", "wrf"), null, heat);
    call(200, "GET", "/api/v1/dataplane", Map.of(), null, heat);

    String reader = issue(Role.CLIENT, List.of("heat"), true, null, null);
    call(200, "GET", "/api/v1/versions", Map.of("app", "heat", "node", "n"), null, reader);
    assertThat(call(403, "POST", "/api/v1/versions", Map.of(), "{}", reader).get("error").asText()).contains("read-only");
    call(403, "DELETE", "/api/v1/versions", Map.of("app", "heat", "node", "n"), null, reader);
    call(403, "POST", "/api/v1/policy", Map.of("app", "heat"), "{}", reader);
  }

  @Test
  void revokedExpiredAndUnknownTokens_getA401ThatSaysWhich() throws IOException {
    String client = issue(Role.CLIENT, null, false, clock.millis() + Duration.ofDays(1).toMillis(), null);
    call(200, "GET", "/api/v1/peers", Map.of(), null, client);
    clock.advance(Duration.ofDays(1));
    assertThat(call(401, "GET", "/api/v1/peers", Map.of(), null, client).get("error").asText()).contains("expired");

    String other = issue(Role.CLIENT, null, false, null, null);
    call(200, "GET", "/api/v1/peers", Map.of(), null, other);
    String id = other.substring(TokenStore.PREFIX.length(), TokenStore.PREFIX.length() + 16);
    assertThat(credentials.tokens().revoke(id)).isTrue();
    assertThat(call(401, "GET", "/api/v1/peers", Map.of(), null, other).get("error").asText()).contains("revoked");

    String forged = other.substring(0, other.length() - 4) + "AAAA";
    assertThat(call(401, "GET", "/api/v1/peers", Map.of(), null, forged).get("error").asText()).contains("unknown bearer token");
    call(401, "GET", "/api/v1/peers", Map.of(), null, null);
  }

  @Test
  void fuzz_tokenParser_onlyEverAnswers401() throws IOException {
    String good = issue(Role.CLIENT, null, false, null, null);
    Random random = new Random(18);
    String alphabet = "ctk1_0123456789abcdefABCDEF-_=+/ \t\u00e9\u0000";
    for (int i = 0; i < 2000; i++) {
      StringBuilder sb = new StringBuilder(good);
      int edits = 1 + random.nextInt(4);
      for (int e = 0; e < edits && sb.length() > 0; e++) {
        int at = random.nextInt(sb.length());
        switch (random.nextInt(3)) {
          case 0 -> sb.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
          case 1 -> sb.deleteCharAt(at);
          default -> sb.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
        }
      }
      if (random.nextInt(5) == 0) {
        sb.setLength(random.nextInt(sb.length() + 1));
      }
      String presented = sb.toString();
      var r = api.handle("GET", "/api/v1/peers", Map.of(), new byte[0], "Bearer " + presented);
      int expected = presented.trim().equals(good) ? 200 : 401;
      assertThat(r.status()).as("token %s", presented).isEqualTo(expected);
    }
  }
}
