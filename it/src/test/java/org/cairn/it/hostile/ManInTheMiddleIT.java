package org.cairn.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.assertj.core.api.SoftAssertions;
import org.cairn.core.security.GridToken;
import org.cairn.it.MiniGrid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A man in the middle between a {@code cairn} client and the tracker ({@link TrackerProxy}, a
 * thread of the test).
 *
 * <p><b>Attack, plain HTTP:</b> on a grid whose operator chose plain HTTP, the proxy rewrites the
 * manifest of an encrypted app's version without its {@code "encryption"}, so the client would take
 * the ciphertext for plaintext (or skip decrypting). <b>Defence:</b> a client holding the app's key
 * refuses a manifest of that app without encryption, and verifies every chunk: the fetch fails with
 * a clear error and writes no output. What plain HTTP still gives away is shown too: the proxy reads
 * the bearer token.
 *
 * <p><b>Attack, default TLS:</b> the proxy terminates TLS with its own self-signed certificate.
 * <b>Defence:</b> the client trusts only the CA its token pins: it refuses the handshake, and the
 * proxy never reads a request, so never a token.
 *
 * <p><b>Nothing lost:</b> the version still fetches byte-identical straight from the tracker.
 */
class ManInTheMiddleIT {
  @TempDir
  Path root;

  @Test
  void aProxyStrippingEncryptionOnPlainHttpGetsNoPlaintextAccepted() throws Exception {
    try (MiniGrid grid = new MiniGrid(root, Duration.ofMillis(500))) {
      Hostile.startGrid(grid, root, 5, Hostile.plain(grid));
      assertThat(grid.trackerUrl()).startsWith("http://");
      String client = Hostile.token(grid, "--role", "client", "--apps", "secret");
      Path clientFile = Hostile.tokenFile(root, "client", client);
      Path input = Hostile.randomFile(root.resolve("ckpt.img"), 3 << 20, 5);
      MiniGrid.Cli store = grid.cliAs(clientFile, "store", input.toString(), "--app", "secret", "--node", "n1");
      assertThat(store.exit()).as(store.stdout() + store.stderr()).isZero();
      assertThat(grid.get("/api/v1/manifest?app=secret&node=n1").json().get("manifest").path("encryption").asText())
          .as("the version is encrypted").isNotEmpty();

      try (TrackerProxy proxy = TrackerProxy.plain(grid.trackerUrl())) {
        Path out = root.resolve("through-proxy.img");
        MiniGrid.Cli fetch = Hostile.cliAt(grid, proxy.url(), clientFile, "fetch", "--app", "secret", "--node", "n1", "-o", out.toString());
        System.out.println("ManInTheMiddleIT: fetch through the proxy: exit " + fetch.exit() + "\n" + fetch.stderr());
        assertThat(proxy.rewritten()).as("the proxy stripped a manifest (requests: %s)", proxy.seen()).isPositive();
        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(fetch.exit()).as("a fetch of a manifest stripped of its encryption fails").isNotZero();
        softly.assertThat(fetch.stderr().lines().filter(l -> !l.isBlank()).count()).as("one clear error: %s", fetch.stderr())
            .isBetween(1L, 3L);
        softly.assertThat(fetch.stderr().toLowerCase(java.util.Locale.ROOT)).as("the error names the encryption")
            .containsAnyOf("encrypt", "sealed");
        softly.assertThat(Files.exists(out) && Files.size(out) > 0).as("no output written from an unverified manifest").isFalse();
        softly.assertThat(String.join("\n", proxy.seen())).as("plain HTTP shows the proxy the bearer token")
            .contains("Bearer " + GridToken.of(client).bearerValue());

        Path direct = root.resolve("direct.img");
        MiniGrid.Cli again = grid.cliAs(clientFile, "fetch", "--app", "secret", "--node", "n1", "-o", direct.toString());
        softly.assertThat(again.exit()).as("the fetch straight from the tracker: %s", again.stderr()).isZero();
        softly.assertThat(Files.exists(direct) && Files.mismatch(input, direct) == -1).as("byte-identical").isTrue();
        softly.assertAll();
      }
    }
  }

  @Test
  void aProxyWithItsOwnCertificateIsRefusedAndSeesNoToken() throws Exception {
    try (MiniGrid grid = new MiniGrid(root, Duration.ofMillis(500))) {
      grid.startTrackerWithRoles(Hostile.tls(grid));
      assertThat(grid.trackerUrl()).startsWith("https://");
      String client = Hostile.token(grid, "--role", "client", "--apps", "secret");
      assertThat(GridToken.of(client).caPin()).as("the client's token pins the CA").isPresent();
      Path clientFile = Hostile.tokenFile(root, "client", client);
      try (TrackerProxy proxy = TrackerProxy.selfSigned(root)) {
        MiniGrid.Cli versions = Hostile.cliAt(grid, proxy.url(), clientFile, "versions", "--app", "secret", "--node", "n1");
        System.out.println("ManInTheMiddleIT: through the TLS proxy: exit " + versions.exit() + "\n" + versions.stderr()
            + "\nhandshakes: " + proxy.handshakes());
        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(versions.exit()).as("the client refuses the proxy").isNotZero();
        softly.assertThat(versions.stderr()).as("and says why").contains("not from the CA the token pins");
        softly.assertThat(proxy.handshakes()).as("a client reached the proxy").isNotEmpty();
        softly.assertThat(proxy.handshakes()).as("no handshake completed").doesNotContain("ok");
        softly.assertThat(proxy.seen()).as("the proxy read no request").isEmpty();
        softly.assertThat(String.join("\n", proxy.seen())).as("nor a token").doesNotContain(GridToken.of(client).bearerValue());
        softly.assertAll();
      }
    }
  }
}
