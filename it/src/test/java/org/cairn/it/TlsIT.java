package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.cairn.core.security.GridToken;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The control plane over TLS with real processes: a tracker started with no TLS flag makes its CA
 * and serves HTTPS, tokens carry its pin, donors and a client reach {@code https://} with nothing but
 * their token; a plain-HTTP connection and a token pinning another CA are refused with clear errors.
 * Plain HTTP takes {@code --insecure-plain-http}, which a tracker group refuses.
 */
class TlsIT {
  @TempDir
  Path root;

  @Test
  void aTrackerWithNoFlagServesHttpsThatPeersAndClientsPinFromTheirTokens() throws Exception {
    try (MiniGrid grid = new MiniGrid(root, Duration.ofMillis(500))) {
      grid.startTrackerWithRoles();
      assertThat(grid.trackerUrl()).startsWith("https://");
      String pin = Files.readString(grid.trackerData().resolve("ca.sha256")).strip();
      assertThat(GridToken.readFile(grid.tokenFile()).caPin()).as("the admin token carries the pin").contains(pin);

      MiniGrid.Cli made = grid.trackerCommand("token", "create", "--data", grid.trackerData().toString(), "--role", "donor",
          "--uses", "5");
      assertThat(made.exit()).as(made.stderr()).isZero();
      assertThat(made.stdout().strip()).endsWith("#sha256:" + pin);
      Path donorFile = Files.writeString(root.resolve("donor.token"), made.stdout());
      java.util.List<MiniGrid.Node> peers = new java.util.ArrayList<>();
      for (int i = 0; i < 5; i++) {
        peers.add(grid.startPeer("p" + i, "--token-file", donorFile.toString()));
      }
      MiniGrid.await("5 donors RUNNING over https", Duration.ofSeconds(30),
          () -> grid.peers().findValuesAsText("state").stream().filter("RUNNING"::equals).count() == 5);

      MiniGrid.Cli client = grid.trackerCommand("token", "create", "--data", grid.trackerData().toString(), "--role", "client");
      Path clientFile = Files.writeString(root.resolve("client.token"), client.stdout());
      Path input = root.resolve("ckpt.img");
      byte[] data = new byte[2 << 20];
      new Random(7).nextBytes(data);
      Files.write(input, data);
      MiniGrid.Cli store = grid.cliAs(clientFile, "store", input.toString(), "--app", "heat", "--node", "n1");
      assertThat(store.exit()).as(store.stdout() + store.stderr()).isZero();
      Path out = root.resolve("out.img");
      MiniGrid.Cli fetch = grid.cliAs(clientFile, "fetch", "--app", "heat", "--node", "n1", "-o", out.toString());
      assertThat(fetch.exit()).as(fetch.stderr()).isZero();
      assertThat(Files.mismatch(input, out)).isEqualTo(-1);

      // a token pinning another CA: refused before any secret is sent, and the error says why
      String otherPin = "0".repeat(64);
      Path wrongPin = Files.writeString(root.resolve("wrong-pin.token"),
          GridToken.of(client.stdout().strip()).bearerValue() + "#sha256:" + otherPin + "\n");
      MiniGrid.Cli refused = grid.cliAs(wrongPin, "versions", "--app", "heat", "--node", "n1");
      assertThat(refused.exit()).isNotZero();
      assertThat(refused.stderr()).contains("not from the CA the token pins");

      // plain HTTP to the TLS port: one line saying what to change, nothing of the API
      java.net.URI u = java.net.URI.create(grid.trackerUrl());
      try (Socket s = new Socket(u.getHost(), u.getPort())) {
        s.setSoTimeout(5000);
        OutputStream o = s.getOutputStream();
        o.write(("GET /api/v1/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + GridToken.of(grid.token()).bearerValue()
            + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        o.flush();
        InputStream in = s.getInputStream();
        String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        assertThat(answer).startsWith("HTTP/1.1 400").contains("serves HTTPS only").contains("--insecure-plain-http")
            .doesNotContain("\"status\":\"ok\"");
      }
      // and a client still configured for plain HTTP prints that line
      MiniGrid.Cli plain = grid.command(withJar("client-cli", "cairn.jar", "--tracker", "http://" + u.getHost() + ":" + u.getPort(),
          "--token-file", clientFile.toString(), "versions", "--app", "heat", "--node", "n1"), java.util.Map.of());
      assertThat(plain.exit()).isNotZero();
      assertThat(plain.stderr()).contains("serves HTTPS only").contains("https://").contains("#sha256:");
      assertThat(grid.tracker().process().isAlive()).isTrue();

      // the data plane is TLS too: a plaintext connection to a peer never sees its CHALLENGE frame
      assertThat(peers.get(0).stderr()).contains("data plane: TLS through");
      String[] hp = peers.get(0).address().split(":");
      byte[] first;
      try (Socket s = new Socket(hp[0], Integer.parseInt(hp[1]))) {
        s.setSoTimeout(5000);
        s.getOutputStream().write(new byte[64]);
        first = s.getInputStream().readNBytes(2);
      } catch (java.net.SocketException reset) {
        first = new byte[0]; // the peer reset the connection: nothing plaintext came back
      }
      assertThat(first.length == 2 && (first[0] & 0xFF) == 0xCA && (first[1] & 0xFF) == 0x1F)
          .as("a plaintext frame from a peer of a TLS grid").isFalse();
      assertThat(peers.get(0).process().isAlive()).isTrue();
    }
  }

  private static java.util.List<String> withJar(String module, String jar, String... args) {
    java.util.List<String> cmd = TestJvm.command(MiniGrid.jar(module, jar));
    cmd.addAll(java.util.List.of(args));
    return cmd;
  }

  @Test
  void insecurePlainHttpServesPlainAndWarnsThenAPlainGridMovedToHttpsSaysWhatToChange() throws Exception {
    try (MiniGrid grid = new MiniGrid(root, Duration.ofMillis(500))) {
      grid.startTracker("--insecure-plain-http");
      assertThat(grid.trackerUrl()).startsWith("http://");
      assertThat(grid.get("/api/v1/health").status()).isEqualTo(200);
      assertThat(grid.tracker().stderr()).contains("WARN").contains("--insecure-plain-http: the API and the status page are plain HTTP")
          .contains("bearer tokens");
      grid.tracker().stop();

      grid.startTracker(); // the same data directory, now with no flag: HTTPS, and one line on how to move
      assertThat(grid.trackerUrl()).startsWith("https://");
      String pin = Files.readString(grid.trackerData().resolve("ca.sha256")).strip();
      java.util.regex.Matcher moved = grid.tracker().awaitLine(java.util.regex.Pattern.compile("served plain HTTP before.*"),
          Duration.ofSeconds(10));
      assertThat(moved.group()).contains(grid.trackerUrl()).contains("#sha256:" + pin).contains("token create")
          .contains("--insecure-plain-http");
      assertThat(grid.tracker().stderr()).contains("served plain HTTP before");
      assertThat(grid.get("/api/v1/health").status()).as("the pinned token reaches it").isEqualTo(200);
    }
  }

  @Test
  void aGroupMemberRefusesToStartWithoutTheSharedCaOrWithPlainHttp() throws Exception {
    try (MiniGrid grid = new MiniGrid(root, Duration.ofMillis(500))) {
      String[] member = {"--data", root.resolve("member").toString(), "--listen", "127.0.0.1:0",
          "--peers", "a=127.0.0.1:1,b=127.0.0.1:2,c=127.0.0.1:3", "--id", "a", "--token-file", grid.tokenFile().toString()};
      MiniGrid.Cli noCa = grid.trackerCommand(member);
      assertThat(noCa.exit()).isEqualTo(2);
      assertThat(noCa.stderr()).contains("needs --tls-ca DIR").contains("cairn-tracker ca create --out DIR");
      assertThat(noCa.stdout()).doesNotContain("listening on");

      java.util.List<String> plain = new java.util.ArrayList<>(java.util.List.of(member));
      plain.add("--insecure-plain-http");
      MiniGrid.Cli refused = grid.trackerCommand(plain.toArray(String[]::new));
      assertThat(refused.exit()).isEqualTo(2);
      assertThat(refused.stderr()).contains("refuses --insecure-plain-http").contains("--tls-ca");
      assertThat(Files.exists(root.resolve("member").resolve("tls"))).as("no CA made for a member").isFalse();
    }
  }
}
