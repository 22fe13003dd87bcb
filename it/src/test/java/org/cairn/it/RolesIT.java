package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.cairn.core.security.GridToken;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Roles with real processes: a tracker started without a token makes its admin token; the
 * operator issues a donor enrollment token and a client token scoped to one app while it runs;
 * donors join with the enrollment token, clients store and fetch with theirs, and each attack
 * (a donor listing peers, a peer heartbeating as another, a client touching another app) fails.
 * Markers in a stored file are then searched for on every peer's and the tracker's disk, and every
 * secret in every process's output.
 */
class RolesIT {
  private static final String[] MARKERS = {"CAIRN-MARKER-alpha-7f3c", "secret-lattice-constant-2.4601", "ROLESIT_PLAINTEXT"};

  @TempDir
  Path root;

  @Test
  void donorsAndClientsWithTheirOwnCredentials() throws Exception {
    try (MiniGrid grid = new MiniGrid(root, Duration.ofMillis(500))) {
      grid.startTrackerWithRoles();
      Path adminFile = grid.trackerData().resolve("admin.token");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(adminFile))).isEqualTo("rw-------");
      assertThat(Files.readString(root.resolve("tracker.out"))).contains("admin token: " + adminFile.toAbsolutePath());

      // the operator issues tokens while the tracker runs
      String donorLine = create(grid, "--role", "donor", "--uses", "5", "--note", "campus lab");
      String clientLine = create(grid, "--role", "client", "--apps", "heat");
      Path donorFile = Files.writeString(root.resolve("donor.token"), donorLine + "\n");
      Path clientFile = Files.writeString(root.resolve("client.token"), clientLine + "\n");
      String donor = GridToken.of(donorLine).bearerValue(); // the secret, without the CA pin the line ends with
      String client = GridToken.of(clientLine).bearerValue();

      List<MiniGrid.Node> peers = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        peers.add(grid.startPeer("p" + i, "--token-file", donorFile.toString()));
      }
      MiniGrid.await("5 donors RUNNING", Duration.ofSeconds(30), () -> countRunning(grid) == 5);
      for (int i = 0; i < 5; i++) {
        Path own = root.resolve("p" + i).resolve("peer.credential");
        MiniGrid.await(own + " written", Duration.ofSeconds(10), () -> Files.exists(own));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(own))).isEqualTo("rw-------");
      }

      // GET /api/v1/peers: a donor token 403, a client or admin token 200
      assertThat(grid.get("/api/v1/peers", "Bearer " + donor).status()).isEqualTo(403);
      assertThat(grid.get("/api/v1/peers", "Bearer " + client).status()).isEqualTo(200);
      assertThat(grid.get("/api/v1/peers", "Bearer " + grid.token()).status()).isEqualTo(200);

      // a peer heartbeating as another peer is refused, and the other peer stays RUNNING
      String p0 = GridToken.readFile(root.resolve("p0/peer.credential")).bearerValue();
      HttpResponse<String> forged = post(grid, "/api/v1/peers/" + peers.get(1).peerId() + "/heartbeat", "{\"state\":\"FULL\"}", p0);
      assertThat(forged.statusCode()).as(forged.body()).isEqualTo(403);
      assertThat(grid.stateOf(peers.get(1).peerId())).isEqualTo("RUNNING");
      // and a peer's credential reads nothing a client can
      assertThat(grid.get("/api/v1/apps", "Bearer " + p0).status()).isEqualTo(403);

      // the scoped client stores and fetches its app with default settings
      Path input = root.resolve("checkpoint.img");
      Files.write(input, withMarkers(3 << 20));
      MiniGrid.Cli store = grid.cliAs(clientFile, "store", input.toString(), "--app", "heat", "--node", "n1");
      assertThat(store.exit()).as(store.stdout() + store.stderr()).isZero();
      Path out = root.resolve("restored.img");
      MiniGrid.Cli fetch = grid.cliAs(clientFile, "fetch", "--app", "heat", "--node", "n1", "-o", out.toString());
      assertThat(fetch.exit()).as(fetch.stdout() + fetch.stderr()).isZero();
      assertThat(Files.mismatch(input, out)).isEqualTo(-1);
      // ... and may not touch another app
      MiniGrid.Cli other = grid.cliAs(clientFile, "store", input.toString(), "--app", "wrf", "--node", "n1");
      assertThat(other.exit()).isNotZero();
      assertThat(other.stderr()).contains("may not touch app wrf");
      MiniGrid.Cli list = grid.cliAs(clientFile, "versions", "--app", "wrf");
      assertThat(list.exit()).isNotZero();

      // a peer restarted keeps its own credential: the enrollment token is not used again
      peers.get(2).kill();
      peers.set(2, grid.startPeer("p2", "--token-file", donorFile.toString()));
      MiniGrid.await("p2 back", Duration.ofSeconds(30), () -> "RUNNING".equals(grid.stateOf(peers.get(2).peerId())));
      MiniGrid.Cli tokens = grid.trackerCommand("token", "list", "--data", grid.trackerData().toString(), "--json");
      assertThat(tokens.exit()).as(tokens.stderr()).isZero();
      assertThat(tokens.json().findValues("uses").stream().map(u -> u.asInt()).toList()).containsExactly(0);

      // no marker on any disk: peers' data directories and the tracker's database
      try (Stream<Path> files = Stream.concat(Files.walk(grid.trackerData()),
          Stream.of(0, 1, 2, 3, 4).flatMap(i -> walk(root.resolve("p" + i))))) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          String content = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
          for (String marker : MARKERS) {
            assertThat(content).as("%s holds no plaintext marker", f).doesNotContain(marker);
          }
        }
      }
      // no secret in any process's output (but token create's, whose job is to print one)
      List<String> secrets = List.of(grid.token(), donor, client, p0);
      try (Stream<Path> logs = Files.list(root)) {
        for (Path log : logs.filter(p -> p.toString().endsWith(".out") || p.toString().endsWith(".err"))
            .filter(p -> !p.getFileName().toString().startsWith("tracker-command")).toList()) {
          String text = Files.readString(log, StandardCharsets.ISO_8859_1);
          for (String s : secrets) {
            // the secret's last 24 characters (a base64url secret may itself hold '_', so no splitting at one)
            assertThat(text).as("%s never shows a secret", log).doesNotContain(s.substring(Math.max(0, s.length() - 24)));
          }
        }
      }
    }
  }

  /**
   * A donor whose first registration answer was lost: the tracker spent the enrollment token's only use and issued a
   * credential the donor never got. The donor's next try, with the same token, proves the key it registered with; it
   * joins, and the credential it never got is revoked.
   */
  @Test
  void aDonorWhoseFirstAnswerWasLost_joinsOnItsNextTry_withTheSameOneUseToken() throws Exception {
    try (MiniGrid grid = new MiniGrid(root, Duration.ofMillis(500))) {
      grid.startTrackerWithRoles();
      String donorLine = create(grid, "--role", "donor", "--uses", "1");
      Path donorFile = Files.writeString(root.resolve("donor.token"), donorLine + "\n");
      // the peer's id and TLS key exist before its first registration, as the peer makes them at its first start
      Path data = Files.createDirectories(root.resolve("lost/tls"));
      Files.writeString(root.resolve("lost/peer-id"), "peer-lost1\n");
      java.security.KeyPairGenerator g = java.security.KeyPairGenerator.getInstance("EC");
      g.initialize(new java.security.spec.ECGenParameterSpec("secp256r1"));
      java.security.KeyPair key = g.generateKeyPair();
      java.util.Base64.Encoder b64 = java.util.Base64.getEncoder();
      Files.writeString(data.resolve("peer.key"), b64.encodeToString(key.getPrivate().getEncoded()));
      Files.writeString(data.resolve("peer.pub"), b64.encodeToString(key.getPublic().getEncoded()));
      String pub = b64.encodeToString(key.getPublic().getEncoded());
      String donor = GridToken.of(donorLine).bearerValue();
      HttpResponse<String> first = post(grid, "/api/v1/peers",
          "{\"id\":\"peer-lost1\",\"address\":\"127.0.0.1:9\",\"state\":\"RUNNING\",\"publicKey\":\"" + pub + "\"}", donor);
      assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
      String neverReceived = new com.fasterxml.jackson.databind.ObjectMapper().readTree(first.body()).get("credential").asText();

      MiniGrid.Node peer = grid.startPeer("lost", "--token-file", donorFile.toString());
      assertThat(peer.peerId()).isEqualTo("peer-lost1");
      Path own = root.resolve("lost/peer.credential");
      MiniGrid.await("the peer's own credential written", Duration.ofSeconds(30), () -> Files.exists(own));
      MiniGrid.await("peer-lost1 RUNNING", Duration.ofSeconds(30), () -> "RUNNING".equals(grid.stateOf("peer-lost1")));
      assertThat(GridToken.readFile(own).bearerValue()).isNotEqualTo(neverReceived);
      HttpResponse<String> stale = post(grid, "/api/v1/peers/peer-lost1/heartbeat", "{\"state\":\"RUNNING\"}", neverReceived);
      assertThat(stale.statusCode()).as(stale.body()).isEqualTo(401);
      assertThat(Files.readString(root.resolve("tracker.out")) + Files.readString(root.resolve("tracker.err")))
          .contains("peer peer-lost1 registered again with enrollment token");
    }
  }

  /** {@code cairn-tracker.jar token create --data D ARGS...}: the new token, the one line it prints. */
  private static String create(MiniGrid grid, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("token", "create", "--data", grid.trackerData().toString()));
    all.addAll(List.of(args));
    MiniGrid.Cli r = grid.trackerCommand(all.toArray(String[]::new));
    assertThat(r.exit()).as(r.stderr()).isZero();
    assertThat(r.stdout().lines()).hasSize(1);
    return r.stdout().strip();
  }

  private static Stream<Path> walk(Path dir) {
    try {
      return Files.walk(dir);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static int countRunning(MiniGrid grid) throws Exception {
    int n = 0;
    for (var p : grid.peers()) {
      n += p.get("state").asText().equals("RUNNING") ? 1 : 0;
    }
    return n;
  }

  private static HttpResponse<String> post(MiniGrid grid, String path, String body, String token) throws Exception {
    HttpRequest r = HttpRequest.newBuilder(URI.create(grid.trackerUrl() + path)).timeout(Duration.ofSeconds(10))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    return grid.http().send(r, HttpResponse.BodyHandlers.ofString()); // the tracker's own CA, as the grid's token pins it
  }

  /** Seeded random bytes with the markers written in plain text every 64 KiB. */
  private static byte[] withMarkers(int size) {
    byte[] b = new byte[size];
    new Random(18).nextBytes(b);
    for (int at = 0, i = 0; at + 64 < size; at += 64 << 10, i++) {
      byte[] m = MARKERS[i % MARKERS.length].getBytes(StandardCharsets.US_ASCII);
      System.arraycopy(m, 0, b, at, m.length);
    }
    return b;
  }
}
