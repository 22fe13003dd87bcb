package org.cairn.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.cairn.cli.context.Session;
import org.cairn.core.config.HostPort;
import org.cairn.core.security.GridToken;
import org.cairn.tracker.Tracker;
import org.cairn.tracker.service.TrackerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commands as a user runs them, in-process, against a real tracker on loopback (no peers: the
 * commands that need no data plane). They parse, call the Grid façade and print; these tests hold
 * their output and exit codes.
 */
class CommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private Tracker tracker;
  private Path tokenFile;

  @BeforeEach
  void start() throws Exception {
    String token = GridToken.generate();
    tokenFile = Files.writeString(dir.resolve("token"), token);
    tracker = new Tracker(TrackerConfig.builder(dir.resolve("tracker")).listen(HostPort.parse("127.0.0.1:0"))
        .token(GridToken.of(token)).heartbeatInterval(Duration.ofSeconds(1)).historySlot(Duration.ofSeconds(1))
        .historyRetention(Duration.ofDays(1)).historyWindow(Duration.ofDays(1)).repairInterval(Duration.ofMillis(500))
        .repairJobsPerPeer(2).tls(false).build(), Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    tracker.close();
  }

  private record Run(int exit, String out, String err) {
    JsonNode json() throws Exception {
      return JSON.readTree(out);
    }
  }

  @Test
  void aCommandLineHoldsOnlyTheCommandItNames_andEveryCommandWhenItNamesNone() {
    assertThat(CairnCli.commandLine(Session.local(), new String[] {"--tracker", "http://t:1", "--token-file", "store", "versions",
        "--app", "fetch"}).getSubcommands().keySet()).as("a root option's value is not the command").containsExactly("versions");
    assertThat(CairnCli.commandLine(Session.local(), new String[] {"-q", "store", "f", "--app", "a"}).getSubcommands().keySet())
        .containsExactly("store");
    assertThat(CairnCli.commandLine(Session.local(), new String[] {"--help"}).getSubcommands().keySet())
        .hasSize(CairnCli.COMMANDS.size()).contains("store", "fetch", "agent", "help");
    assertThat(CairnCli.commandLine(Session.local(), new String[] {"stor"}).getSubcommands())
        .as("a typo gets suggestions from every command").hasSize(CairnCli.COMMANDS.size());
  }

  private Run cairn(String... args) {
    List<String> all = new ArrayList<>(List.of("--tracker", "http://127.0.0.1:" + tracker.port(), "--token-file", tokenFile.toString()));
    all.addAll(List.of(args));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = CairnCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(all.toArray(String[]::new));
    return new Run(exit, out.toString(), err.toString());
  }

  @Test
  void status_json_isOneObjectWithAnEmptyStalledList() throws Exception {
    Run r = cairn("status", "--json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode s = r.json();
    assertThat(s.get("peers").asInt()).isZero();
    assertThat(s.get("durability").get("stalled").isArray()).isTrue();
    assertThat(s.get("durability").get("stalled")).isEmpty();
  }

  @Test
  void aTrackerList_reachesTheMemberThatAnswers() throws Exception {
    int dead;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      dead = s.getLocalPort();
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = CairnCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute("--tracker", "http://127.0.0.1:" + dead + ",http://127.0.0.1:" + tracker.port(), "--token-file",
        tokenFile.toString(), "status", "--json");
    assertThat(exit).as(err.toString()).isZero();
    assertThat(JSON.readTree(out.toString()).get("peers").asInt()).isZero();
    StringWriter badErr = new StringWriter();
    CommandLine bad = CairnCli.commandLine();
    bad.setOut(new PrintWriter(new StringWriter(), true));
    bad.setErr(new PrintWriter(badErr, true));
    assertThat(bad.execute("--tracker", "http://127.0.0.1:1,nourl", "--token-file", tokenFile.toString(), "status")).isEqualTo(2);
    assertThat(badErr.toString()).contains("'nourl'");
  }

  @Test
  void everyCommandsSummaryIsOneWholeSentence_andItsHelpPrintsNoWarning() {
    CommandLine cli = CairnCli.commandLine();
    for (java.util.Map.Entry<String, CommandLine> e : cli.getSubcommands().entrySet()) {
      CommandLine.Model.UsageMessageSpec u = e.getValue().getCommandSpec().usageMessage();
      String summary = u.header().length > 0 ? u.header()[0] : u.description().length > 0 ? u.description()[0] : "";
      assertThat(summary).as("the command list's line for " + e.getKey()).endsWith(".");
      java.io.PrintStream saved = System.err;
      java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
      System.setErr(new java.io.PrintStream(captured, true));
      try {
        Run r = cairn(e.getKey(), "--help");
        assertThat(r.exit()).as(e.getKey() + " --help").isZero();
      } finally {
        System.setErr(saved);
      }
      assertThat(captured.toString()).as(e.getKey() + " --help").doesNotContain("WARN");
    }
  }

  @Test
  void status_text_saysThereAreNoPeers() {
    Run r = cairn("status");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("peers     0").contains("0 versions of 0 nodes in 0 apps").doesNotContain("stalled");
  }

  @Test
  void versions_ofAnUnknownNode_isAnEmptyJsonArray() throws Exception {
    Run r = cairn("versions", "--app", "heat", "--node", "n1", "--json");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.json().isArray()).isTrue();
    assertThat(r.json()).isEmpty();
  }

  @Test
  void verify_ofAnAppWithNoVersions_failsWithOneLine() {
    Run r = cairn("verify", "--app", "nosuch");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().strip()).isEqualTo("cairn: verify failed: app nosuch has no versions");
  }

  @Test
  void verify_stepWithoutNode_isAUsageError() {
    Run r = cairn("verify", "--app", "heat", "--step", "3");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--step needs --node");
  }

  @Test
  void fetch_ofAMissingVersion_failsAndWritesNothing() {
    Path out = dir.resolve("restored.img");
    Run r = cairn("fetch", "--app", "heat", "--node", "n1", "-o", out.toString());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("cairn: fetch failed:");
    assertThat(out).doesNotExist();
  }

  @Test
  void policy_setThenGet_roundTrips() throws Exception {
    Run set = cairn("policy", "set", "--app", "heat", "--folder", "replace");
    assertThat(set.exit()).as(set.err()).isZero();
    Run get = cairn("policy", "get", "--app", "heat");
    assertThat(get.exit()).as(get.err()).isZero();
    assertThat(get.out()).contains("replace");
  }

  @Test
  void aWrongToken_isRefusedWithOneLine() throws Exception {
    Files.writeString(tokenFile, GridToken.generate());
    Run r = cairn("status");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().strip().lines()).hasSize(1);
    assertThat(r.err()).contains("401");
  }
}
