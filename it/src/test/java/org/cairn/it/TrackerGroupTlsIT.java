package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Random;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tracker group's trust gap closed: a tracker group with {@code --tls} shares one CA made by {@code
 * cairn-tracker ca create}; every member serves HTTPS under the one pin the tokens carry, and the
 * members' Raft traffic runs over mutual TLS that only member certificates pass. Real processes: three
 * trackers, five peers, the CLI; the leader is SIGKILLed and comes back, over TLS throughout.
 */
class TrackerGroupTlsIT {
  @TempDir
  Path root;

  @Test
  void aGroupOverTlsServesUnderOnePinAndItsRaftPortsTakeOnlyMembers() throws Exception {
    try (MiniGrid grid = new MiniGrid(root, Duration.ofSeconds(1))) {
      Path caDir = root.resolve("group-ca");
      MiniGrid.Cli ca = grid.trackerCommand("ca", "create", "--out", caDir.toString());
      assertThat(ca.exit()).as(ca.stderr()).isZero();
      String pin = ca.stdout().strip();
      assertThat(pin).matches("[0-9a-f]{64}");
      grid.pinCa(pin);

      // without the shared CA a member refuses to start, saying what to do
      MiniGrid.Cli alone = grid.trackerCommand("--data", root.resolve("lonely").toString(), "--listen", "127.0.0.1:0", "--tls",
          "--peers", "a=127.0.0.1:1,b=127.0.0.1:2,c=127.0.0.1:3", "--id", "a", "--token-file", grid.tokenFile().toString());
      assertThat(alone.exit()).isNotZero();
      assertThat(alone.stderr()).contains("ca create").contains("--tls-ca");

      TrackerGroup group = new TrackerGroup(grid, 3, "--tls", "--tls-ca", caDir.toString());
      group.start();
      for (int i = 0; i < 3; i++) {
        assertThat(group.url(i)).startsWith("https://");
        assertThat(group.cluster(i)).as("member %d answers over https under the token's pin", i).isNotNull();
        assertThat(Files.readString(group.data(i).resolve("ca.sha256")).strip()).isEqualTo(pin);
        assertThat(group.member(i).stderr()).contains("over mutual TLS");
      }
      for (int i = 0; i < 5; i++) {
        grid.startPeer("p" + i);
      }
      MiniGrid.await("five peers running over https", Duration.ofSeconds(60), () -> group.running() == 5);

      byte[] bytes = new byte[3 << 20];
      new Random(21).nextBytes(bytes);
      Path image = Files.write(root.resolve("image"), bytes);
      MiniGrid.Cli store = grid.cli("store", image.toString(), "--app", "tls", "--node", "n");
      assertThat(store.exit()).as(store.stderr()).isZero();

      // the Raft ports speak TLS with member certificates from the group's CA, and refuse a caller without one
      for (int i = 0; i < 3; i++) {
        String[] hostPort = group.raftAddress(i).split(":");
        int member = i;
        SSLContext any = SSLContext.getInstance("TLS");
        X509Certificate[][] seen = new X509Certificate[1][];
        any.init(null, new TrustManager[] {new X509TrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {
            throw new UnsupportedOperationException();
          }

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {
            seen[0] = chain;
          }

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        }}, null);
        try (SSLSocket s = (SSLSocket) any.getSocketFactory().createSocket(hostPort[0], Integer.parseInt(hostPort[1]))) {
          s.setSoTimeout(10_000);
          javax.net.ssl.SSLParameters params = s.getSSLParameters();
          params.setApplicationProtocols(new String[] {"h2"});
          s.setSSLParameters(params);
          assertThatThrownBy(() -> {
            // TLS 1.3: the client's side of the handshake ends before the member checks its (empty) certificate; the
            // member's refusal is an alert, read here. Nothing is written first: bytes the member never reads would
            // make its close a reset, and the write a "Broken pipe" in place of the alert (seen under load)
            s.startHandshake();
            if (s.getInputStream().read() < 0) {
              throw new java.io.EOFException("closed");
            }
          }).as("member %d's Raft port without a client certificate", i).isInstanceOf(javax.net.ssl.SSLHandshakeException.class)
              .hasMessageContaining("certificate_required").satisfies(e -> System.out.println("Raft port of " + TrackerGroup.id(member) + " without a client certificate: " + e));
        }
        assertThat(seen[0]).as("member %d presented a certificate", i).isNotNull();
        assertThat(seen[0][0].getSubjectX500Principal().getName()).isEqualTo("CN=Cairn tracker member " + TrackerGroup.id(i));
        assertThat(org.cairn.core.security.PinnedTrust.fingerprint(seen[0][seen[0].length - 1])).isEqualTo(pin);
      }

      // the leader dies: a new one is elected over TLS, serves the version, and the old one catches up when back
      int leader = group.awaitLeader(Duration.ofSeconds(10));
      group.member(leader).kill();
      int next = group.awaitLeader(Duration.ofSeconds(30));
      assertThat(next).isNotEqualTo(leader);
      Path out = root.resolve("out");
      MiniGrid.Cli fetch = grid.cli("fetch", "--app", "tls", "--node", "n", "-o", out.toString());
      assertThat(fetch.exit()).as(fetch.stderr()).isZero();
      assertThat(Files.mismatch(image, out)).isEqualTo(-1L);
      MiniGrid.Cli again = grid.cli("store", image.toString(), "--app", "tls", "--node", "n2");
      assertThat(again.exit()).as(again.stderr()).isZero();
      group.startMember(leader);
      long target = group.applied(next);
      MiniGrid.await("the restarted member to catch up over TLS", Duration.ofSeconds(60), () -> group.applied(leader) >= target);
    }
  }
}
