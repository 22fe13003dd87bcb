package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.cairn.core.security.GridToken;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tracker group split by the network. Three trackers, each in its own network namespace
 * on a bridge (and a client namespace); the leader's link is cut. The leader, now a minority of one,
 * commits nothing (a write to it fails); the other two elect a leader that commits; when the link
 * comes back the old leader follows and what it could not commit is gone. Needs root and iproute2.
 */
class TrackerPartitionIT {
  private static final String NS = "cairnpt-";
  private static final String[] HOSTS = {"t1", "t2", "t3", "c"};
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path root;
  private final List<Process> trackers = new ArrayList<>(List.of());
  private Path token;

  record Run(int exit, String out) {}

  private static Run run(String... cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", cmd) + " did not finish in 60 s");
    }
    return new Run(p.exitValue(), out);
  }

  private static void must(String... cmd) throws IOException, InterruptedException {
    Run r = run(cmd);
    assertThat(r.exit()).as(String.join(" ", cmd) + ": " + r.out()).isZero();
  }

  private static String ip(int member) {
    return "10.78.0." + member;
  }

  @BeforeEach
  void network() throws Exception {
    MiniGrid.requireTools("the partition test needs iproute2 and curl: apt-get install -y iproute2 curl (.ci/run installs them)",
        Path.of("/usr/sbin/ip"), Path.of("/usr/bin/curl"));
    org.junit.jupiter.api.Assumptions.assumeTrue("0".equals(run("id", "-u").out().trim()), "network namespaces need root");
    removeNamespaces();
    must("ip", "netns", "add", NS + "hub");
    must("ip", "-n", NS + "hub", "link", "add", "br0", "type", "bridge");
    must("ip", "-n", NS + "hub", "link", "set", "br0", "up");
    for (int i = 0; i < HOSTS.length; i++) {
      String ns = NS + HOSTS[i];
      must("ip", "netns", "add", ns);
      must("ip", "-n", NS + "hub", "link", "add", "v" + HOSTS[i], "type", "veth", "peer", "name", "eth0", "netns", ns);
      must("ip", "-n", NS + "hub", "link", "set", "v" + HOSTS[i], "master", "br0", "up");
      must("ip", "-n", ns, "addr", "add", ip(i + 1) + "/24", "dev", "eth0");
      must("ip", "-n", ns, "link", "set", "eth0", "up");
      must("ip", "-n", ns, "link", "set", "lo", "up");
    }
    token = Files.writeString(root.resolve("token"), GridToken.generate() + "\n");
    // members need the group's shared CA (Raft over mutual TLS, HTTPS); curl trusts it by its certificate
    List<String> ca = new ArrayList<>(TestJvm.command(MiniGrid.jar("tracker", "cairn-tracker.jar")));
    ca.addAll(List.of("ca", "create", "--out", root.resolve("ca").toString()));
    must(ca.toArray(String[]::new));
  }

  @AfterEach
  void cleanUp() throws Exception {
    for (Process p : trackers) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
    removeNamespaces();
    assertThat(run("ip", "netns", "list").out()).doesNotContain(NS);
  }

  private static void removeNamespaces() throws Exception {
    for (String line : run("ip", "netns", "list").out().split("\n")) {
      String name = line.split(" ")[0];
      if (name.startsWith(NS)) {
        must("ip", "netns", "del", name);
      }
    }
  }

  private void startTracker(int member) throws IOException {
    String peers = "t1=" + ip(1) + ":7611,t2=" + ip(2) + ":7611,t3=" + ip(3) + ":7611";
    List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", NS + "t" + member));
    cmd.addAll(TestJvm.command(MiniGrid.jar("tracker", "cairn-tracker.jar")));
    cmd.addAll(List.of("--data", root.resolve("t" + member).toString(), "--listen", ip(member) + ":7600", "--token-file",
        token.toString(), "--peers", peers, "--id", "t" + member, "--tls-ca", root.resolve("ca").toString()));
    trackers.add(new ProcessBuilder(cmd).redirectOutput(root.resolve("t" + member + ".out").toFile())
        .redirectError(root.resolve("t" + member + ".err").toFile()).start());
  }

  /** curl from namespace {@code from} to member {@code member}: the HTTP status and body ("000" if it did not answer). */
  private Run curl(String from, int member, String method, String path, String body) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", NS + from, "curl", "-s", "-m", "20", "--cacert", root.resolve("ca").resolve("ca.crt").toString(), "-o", "-", "-w", "\n%{http_code}",
        "-X", method, "-H", "Authorization: Bearer " + Files.readString(token).strip(), "-H", "Content-Type: application/json"));
    if (body != null) {
      cmd.addAll(List.of("-d", body));
    }
    cmd.add("https://" + ip(member) + ":7600" + path);
    Run r = run(cmd.toArray(String[]::new));
    int nl = r.out().lastIndexOf('\n');
    return new Run(Integer.parseInt(r.out().substring(nl + 1).trim()), r.out().substring(0, Math.max(0, nl)));
  }

  private JsonNode cluster(String from, int member) throws Exception {
    Run r = curl(from, member, "GET", "/api/v1/cluster", null);
    return r.exit() == 200 ? JSON.readTree(r.out()) : null;
  }

  private Run policy(String from, int member, String app) throws Exception {
    return curl(from, member, "POST", "/api/v1/policy", "{\"app\":\"" + app + "\",\"folder\":\"replace\"}");
  }

  @Test
  void aLeaderCutOffFromTheMajorityCommitsNothing() throws Exception {
    for (int m = 1; m <= 3; m++) {
      startTracker(m);
    }
    int[] leader = {0};
    MiniGrid.await("a leader that commits", Duration.ofSeconds(60), () -> {
      JsonNode c = cluster("c", 1);
      if (c == null || c.path("leader").asText().isEmpty()) {
        return false;
      }
      leader[0] = Integer.parseInt(c.path("leader").asText().substring(1));
      return policy("c", leader[0], "before").exit() == 200;
    });
    int old = leader[0];

    must("ip", "-n", NS + "hub", "link", "set", "vt" + old, "down"); // the leader is cut off
    Run minority = policy("t" + old, old, "minority");
    assertThat(minority.exit()).as("a write to the cut-off leader: %s", minority.out()).isEqualTo(503);

    int[] next = {0};
    MiniGrid.await("the majority to elect a leader that commits", Duration.ofSeconds(60), () -> {
      for (int m = 1; m <= 3; m++) {
        if (m != old && policy("c", m, "majority").exit() == 200) {
          next[0] = m;
          return true;
        }
      }
      return false;
    });
    assertThat(next[0]).isNotEqualTo(old);

    must("ip", "-n", NS + "hub", "link", "set", "vt" + old, "up"); // the partition heals
    MiniGrid.await("the old leader to follow the new one and catch up", Duration.ofSeconds(60), () -> {
      JsonNode o = cluster("c", old);
      JsonNode n = cluster("c", next[0]);
      return o != null && n != null && o.path("leader").asText().equals("t" + next[0])
          && o.path("applied").asLong() >= n.path("applied").asLong();
    });
    assertThat(curl("c", next[0], "GET", "/api/v1/policy?app=before", null).out()).contains("replace");
    assertThat(curl("c", next[0], "GET", "/api/v1/policy?app=majority", null).out()).contains("replace");
    Run lost = curl("c", next[0], "GET", "/api/v1/policy?app=minority", null);
    assertThat(lost.exit()).isEqualTo(200);
    assertThat(lost.out()).as("the write the cut-off leader could not commit is not there (the default policy is)")
        .contains("keep-all").doesNotContain("replace");
  }
}
