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
 * The control plane over TLS (#18) with real processes: a tracker started with {@code --tls} makes
 * its CA, tokens carry its pin, donors and a client reach {@code https://} with nothing but their
 * token; a plain-HTTP connection and a token pinning another CA are refused with clear errors.
 */
class TlsIT {
  @TempDir
  Path root;

  @Test
  void peersAndClientsPinTheTrackersCaFromTheirTokens() throws Exception {
    try (MiniGrid grid = new MiniGrid(root, Duration.ofMillis(500))) {
      grid.startTrackerWithRoles("--tls");
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

      // plain HTTP to the TLS port: the connection is closed, nothing is answered
      java.net.URI u = java.net.URI.create(grid.trackerUrl());
      try (Socket s = new Socket(u.getHost(), u.getPort())) {
        s.setSoTimeout(5000);
        OutputStream o = s.getOutputStream();
        o.write(("GET /api/v1/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + GridToken.of(grid.token()).bearerValue()
            + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        o.flush();
        InputStream in = s.getInputStream();
        byte[] answer = in.readAllBytes();
        assertThat(new String(answer, StandardCharsets.ISO_8859_1)).doesNotContain("HTTP/1.1 200").doesNotContain("\"status\":\"ok\"");
      }
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
}
