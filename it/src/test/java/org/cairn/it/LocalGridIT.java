package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands a newcomer runs first: {@code cairn demo}, and {@code cairn grid up|down} with store/fetch against it. */
class LocalGridIT {
  @TempDir
  Path root;

  private record Run(int exit, String out, String err) {}

  private Run cairn(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        MiniGrid.jar("client-cli", "cairn.jar").toString()));
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(root, "out", ".txt");
    Path err = Files.createTempFile(root, "err", ".txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().put("CAIRN_KEY_DIR", root.resolve("keys").toString()); // stores encrypt by default; keys stay here
    Process p = pb.start();
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("cairn %s finished", String.join(" ", args)).isTrue();
    return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  void demo_runsEndToEndAndExitsZero() throws Exception {
    Path dir = root.resolve("demo-grid");
    Run demo = cairn("demo", "--size", "16MiB", "--steps", "2", "--dir", dir.toString());
    assertThat(demo.exit()).as(demo.out() + demo.err()).isZero();
    assertThat(demo.out()).contains("Stored checkpoint 2").contains("Killed peer").contains("byte-identical");
    // the grid's processes are gone (none still runs with the grid's directory on its command line)
    assertThat(ProcessHandle.allProcesses()
        .filter(h -> h.info().commandLine().map(c -> c.contains(dir.toString())).orElse(false))
        .count()).isZero();
  }

  @Test
  void benchmarkE2e_warmsUp_storesTheSeriesWithDedup_andFetchesItBack() throws Exception {
    Run b = cairn("benchmark", "e2e", "--in-process", "--images", "2", "--size", "8MiB", "--grid-peers", "6", "--compare", "none",
        "--warm-up", "4MiB", "--json", "--dir", root.resolve("e2e").toString());
    assertThat(b.exit()).as(b.out() + b.err()).isZero();
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    List<com.fasterxml.jackson.databind.JsonNode> rows = new ArrayList<>();
    for (String line : b.out().split("\n")) {
      rows.add(json.readTree(line));
    }
    assertThat(rows).extracting(r -> r.path("stage").asText())
        .containsExactly("e2e-warm-up", "e2e-store", "e2e-store", "e2e-fetch", "e2e-fetch", "e2e-fetch", "e2e-note");
    assertThat(rows.get(0).path("bytes").asLong()).isEqualTo(4L << 20);
    // the first image sends every chunk (nothing dedups against the warm-up's seed), the successor only what changed
    assertThat(rows.get(1).path("newChunks").asInt()).isEqualTo(rows.get(1).path("chunks").asInt()).isEqualTo(8);
    assertThat(rows.get(2).path("newChunks").asInt()).isBetween(1, 7);
    for (com.fasterxml.jackson.databind.JsonNode r : rows.subList(1, 6)) {
      assertThat(r.path("mbPerSec").asDouble()).as(r.toString()).isPositive();
      assertThat(r.path("clientCpuSeconds").asDouble()).as(r.toString()).isPositive();
    }
  }

  @Test
  void benchmarkE2e_byDefault_runsEachCommandAsAProcess_withAndWithoutAnAgent() throws Exception {
    Run b = cairn("benchmark", "e2e", "--images", "2", "--size", "8MiB", "--compare", "none", "--json", "--dir",
        root.resolve("e2e-jobs").toString());
    assertThat(b.exit()).as(b.out() + b.err()).isZero();
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    List<com.fasterxml.jackson.databind.JsonNode> rows = new ArrayList<>();
    for (String line : b.out().split("\n")) {
      rows.add(json.readTree(line));
    }
    assertThat(rows).extracting(r -> r.path("stage").asText() + " " + r.path("tool").asText()).containsExactly(
        "e2e-store cairn (agent)", "e2e-store cairn (process)", "e2e-store cairn (agent)", "e2e-store cairn (process)",
        "e2e-fetch cairn (agent)", "e2e-fetch cairn (process)", "e2e-note ");
    assertThat(rows.get(2).path("newChunks").asInt()).isBetween(1, 7);
    assertThat(rows.get(3).path("newChunks").asInt()).isEqualTo(rows.get(2).path("newChunks").asInt());
    for (com.fasterxml.jackson.databind.JsonNode r : rows.subList(0, 6)) {
      assertThat(r.path("bytes").asLong()).as(r.toString()).isEqualTo(8L << 20);
      assertThat(r.path("launcher").asBoolean()).as("started as a user starts cairn: " + r).isTrue();
      // a command without an agent does the work in its own JVM; a handed-over one (the native thin client where the
      // build had a C compiler) spends a few milliseconds at most
      assertThat(r.path("commandCpuSeconds").asDouble()).as(r.toString()).isGreaterThanOrEqualTo(0);
    }
    for (int i = 0; i < 6; i += 2) {
      assertThat(rows.get(i + 1).path("commandCpuSeconds").asDouble()).as(rows.get(i + 1).toString()).isPositive()
          .isGreaterThan(rows.get(i).path("commandCpuSeconds").asDouble());
    }
    // the agent does the work of a handed-over store; a command without one does it itself
    assertThat(rows.get(0).path("agentCpuSeconds").asDouble()).isGreaterThan(rows.get(1).path("agentCpuSeconds").asDouble());
  }

  @Test
  void gridUp_thenStoreFetch_thenGridDown() throws Exception {
    Path dir = root.resolve("grid");
    Run up = cairn("grid", "up", "--dir", dir.toString(), "--peers", "5");
    assertThat(up.exit()).as(up.err()).isZero();
    Matcher url = Pattern.compile("tracker:\\s+(https://\\S+)").matcher(up.out());
    assertThat(url.find()).as(up.out()).isTrue();
    Matcher token = Pattern.compile("token file:\\s+(\\S+)").matcher(up.out());
    assertThat(token.find()).isTrue();
    assertThat(up.out()).contains("status:     " + url.group(1) + "/");
    // the grid's token is the operator's secret: private from its creation, and it pins the tracker's CA
    Path tokenFile = Path.of(token.group(1));
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile))).isEqualTo("rw-------");
    assertThat(org.cairn.core.security.GridToken.readFile(tokenFile).caPin())
        .contains(Files.readString(dir.resolve("tracker").resolve("ca.sha256")).strip());
    try {
      Run again = cairn("grid", "up", "--dir", dir.toString(), "--peers", "5");
      assertThat(again.exit()).isEqualTo(1);
      assertThat(again.err().strip()).isEqualTo("cairn: grid failed: a grid is already running in " + dir + " (tracker " + url.group(1)
          + "); stop it first with 'cairn grid down --dir " + dir + "'");
      byte[] image = MemoryImages.image(3, 8 * 1024 * 1024);
      Path file = Files.write(root.resolve("ck.img"), image);
      Run store = cairn("--tracker", url.group(1), "--token-file", token.group(1), "store", file.toString(), "--app", "a",
          "--node", "n", "--redundancy", "code:3+2");
      assertThat(store.exit()).as(store.err()).isZero();
      Path out = root.resolve("back.img");
      Run fetch = cairn("--tracker", url.group(1), "--token-file", token.group(1), "fetch", "--app", "a", "--node", "n", "-o",
          out.toString());
      assertThat(fetch.exit()).as(fetch.err()).isZero();
      assertThat(out).hasBinaryContent(image);
    } finally {
      Run down = cairn("grid", "down", "--dir", dir.toString());
      assertThat(down.exit()).as(down.err()).isZero();
      assertThat(down.out()).contains("stopped 6 processes");
    }
    assertThat(dir.resolve("grid.json")).doesNotExist();
  }

  /** {@code grid up --status-page public}: the status page's read-only summary needs no token; by default it does. */
  @Test
  void gridUpCanOpenTheStatusPageToAnyone() throws Exception {
    for (String mode : new String[] {"public", "token"}) {
      Path dir = root.resolve("grid-" + mode);
      Run up = cairn("grid", "up", "--dir", dir.toString(), "--peers", "1", "--status-page", mode);
      assertThat(up.exit()).as(up.err()).isZero();
      try {
        Matcher url = Pattern.compile("tracker:\\s+(https://\\S+)").matcher(up.out());
        assertThat(url.find()).as(up.out()).isTrue();
        assertThat(up.out()).contains(mode.equals("public") ? "open to anyone who can reach it" : "--status-page public opens it");
        String pin = org.cairn.core.security.GridToken.readFile(dir.resolve("grid.token")).caPin().orElseThrow();
        java.net.http.HttpClient pinned = java.net.http.HttpClient.newBuilder()
            .sslContext(org.cairn.core.security.PinnedTrust.context(pin)).build();
        java.net.http.HttpResponse<String> peers = pinned.send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create(url.group(1) + "/api/v1/peers")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(peers.statusCode()).as(peers.body()).isEqualTo(mode.equals("public") ? 200 : 401);
      } finally {
        assertThat(cairn("grid", "down", "--dir", dir.toString()).exit()).isZero();
      }
    }
    assertThat(cairn("grid", "up", "--dir", root.resolve("x").toString(), "--status-page", "open").err())
        .contains("--status-page must be token, public or public-apps, was 'open'");
  }
}
