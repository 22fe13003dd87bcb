package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job whose process trees run on two hosts, checkpointed with real CRIU: two launches on this machine (the "hosts", each
 * with its own --part, work directory and output) dump their counters on the same wall-clock rounds, each round one
 * checkpoint set of two parts. When host 1's CRIU starts failing, host 0's parts of the later rounds stay pending and never
 * become versions; after both trees are killed, {@code criu restore --part 0} and {@code --part 1} bring each back from
 * the newest complete set, and each counts on from that round. A set's part stored with another app's token is refused by
 * the tracker and leaves the set as it was.
 */
class CriuSetIT {
  @TempDir
  Path dir;

  /** Processes the test started or restored: killed after it whatever its outcome (a restored one has no parent here). */
  private final List<Long> pids = new ArrayList<>();
  private final List<MiniGrid.Node> commands = new ArrayList<>();

  @AfterEach
  void killLeftProcesses() {
    for (MiniGrid.Node c : commands) {
      c.process().descendants().forEach(ProcessHandle::destroyForcibly);
      c.process().destroyForcibly();
    }
    pids.forEach(p -> ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly));
  }

  @Test
  void twoHostsTreesDumpAsOneSetPerRound_andAfterOneHostsDumpsFailBothRestoreFromTheLastCompleteSet() throws Exception {
    Path criu = CriuInstall.binary();
    Path failing = dir.resolve("host1-criu-fails");
    // host 1's CRIU: the real one, until the file 'failing' exists; then it fails, saying so in its log as CRIU does
    Path host1Criu = script("host1-criu", "if [ -e " + failing + " ]; then\n  while [ $# -gt 0 ]; do [ \"$1\" = -o ] && "
        + "echo 'Error (injected): host 1 is failing' > \"$2\"; shift; done\n  exit 1\nfi\nexec " + criu + " \"$@\"");
    Path program = Files.writeString(dir.resolve("counter.py"), Dmtcp.COUNTER);
    Path[] outputs = {dir.resolve("host0.out"), dir.resolve("host1.out")};
    try (MiniGrid grid = new MiniGrid(Files.createDirectories(dir.resolve("grid")), Duration.ofMillis(500))) {
      grid.startTracker();
      grid.startPeer("p0");
      grid.startPeer("p1");
      MiniGrid.Node[] hosts = new MiniGrid.Node[2];
      for (int r = 0; r < 2; r++) {
        hosts[r] = grid.startCli("host" + r, Map.of("CAIRN_CRIU", (r == 0 ? criu : host1Criu).toString()), "criu", "launch",
            "--app", "job", "--node", "sim", "--part", Integer.toString(r), "--parts", "2", "--interval", "4s", "--redundancy",
            "replicate:2", "--output", outputs[r].toString(), "--work-dir", dir.resolve("work" + r).toString(), "--",
            Dmtcp.python(), program.toString());
        commands.add(hosts[r]);
      }
      MiniGrid.await("two complete sets", Duration.ofMinutes(2), () -> versions(grid).size() >= 2,
          () -> hosts[0].stderr() + hosts[1].stderr());
      // right after host 1 stores a round, its CRIU starts failing: the next rounds lack part 1
      int storedBy1 = count(hosts[1].stderr(), "and stored it");
      MiniGrid.await("host 1 stores another round", Duration.ofMinutes(1), () -> count(hosts[1].stderr(), "and stored it") > storedBy1,
          hosts[1]::stderr);
      Files.writeString(failing, "");
      long[] lastTick = {Ticks.last(Files.readString(outputs[0])), Ticks.last(Files.readString(outputs[1]))};
      Pattern absent = Pattern.compile("part 1 of set (\\S+) is absent");
      MiniGrid.await("host 1's dump of a round fails", Duration.ofMinutes(1), () -> absent.matcher(hosts[1].stderr()).find(),
          hosts[1]::stderr);
      Matcher m = absent.matcher(hosts[1].stderr());
      assertThat(m.find()).isTrue();
      String failedRound = m.group(1);
      MiniGrid.await("host 0's part of that round", Duration.ofMinutes(1),
          () -> hosts[0].stderr().contains("part 0 of set " + failedRound + " (1 of 2 parts committed)"), hosts[0]::stderr);
      for (MiniGrid.Node h : hosts) {
        h.process().descendants().forEach(ProcessHandle::destroyForcibly); // the job is lost on both hosts
        assertThat(h.process().waitFor(1, TimeUnit.MINUTES)).as("a launch ends with its program").isTrue();
      }
      assertThat(hosts[1].stderr()).contains("dump failed: CRIU's dump of").contains("nothing stored")
          .contains("CRIU exited 1: host 1 is failing").contains("is absent, so that set never becomes a version");
      assertThat(dir.resolve("work1").resolve("last-failed-dump.log")).as("the failed dump's log is kept").exists();

      List<JsonNode> complete = versions(grid);
      JsonNode newest = complete.get(complete.size() - 1);
      assertThat(newest.get("parts").asInt()).as("a version is a whole set").isEqualTo(2);
      String newestSet = newest.get("set").asText();
      assertThat(newestSet).as("named by its round's instant").matches("\\d{8}T\\d{6}Z");
      assertThat(failedRound).as("the incomplete round came after the newest complete one").isGreaterThan(newestSet);
      assertThat(complete).as("it never became a version").noneMatch(v -> v.get("set").asText().equals(failedRound));
      assertThat(pendingSets(grid)).as("it waits for its part 1")
          .anyMatch(p -> p.get("set").asText().equals(failedRound) && p.get("partsCommitted").asInt() == 1);
      assertThat(grid.cli("versions", "--app", "job", "--node", "sim").stdout()).contains("set " + failedRound + ": 1 of 2 parts committed");

      MiniGrid.Cli whole = runToEnd(grid, Map.of("CAIRN_CRIU", criu.toString()), "criu", "restore", "--app", "job", "--node", "sim");
      assertThat(whole.exit()).as("a set's version is restored one part at a time").isEqualTo(1);
      assertThat(whole.stderr()).contains("is a checkpoint set of 2 parts");
      MiniGrid.Cli third = runToEnd(grid, Map.of("CAIRN_CRIU", criu.toString()), "criu", "restore", "--app", "job", "--node", "sim",
          "--part", "2");
      assertThat(third.exit()).as(third.stderr()).isEqualTo(1);

      grid.forgetBases(); // restored as on other hosts: every chunk from the donors
      for (int r = 0; r < 2; r++) {
        int before = Ticks.of(Files.readString(outputs[r])).size();
        MiniGrid.Cli restored = runToEnd(grid, Map.of("CAIRN_CRIU", criu.toString()), "criu", "restore", "--app", "job", "--node",
            "sim", "--part", Integer.toString(r), "--json");
        assertThat(restored.exit()).as(restored.stderr()).isZero();
        JsonNode json = restored.json();
        pids.add(json.get("pid").asLong());
        assertThat(json.get("step").asLong()).as("from the newest complete set").isEqualTo(newest.get("step").asLong());
        assertThat(json.get("part").asInt()).isEqualTo(r);
        assertCountsOnFromARoundBefore(outputs[r], before, lastTick[r]);
      }
    }
  }

  @Test
  void aPartStoredWithAnotherAppsTokenIsRefused_andTheSetStaysAsItWas() throws Exception {
    Path criu = CriuInstall.binary();
    Map<String, String> env = Map.of("CAIRN_CRIU", criu.toString());
    try (MiniGrid grid = new MiniGrid(Files.createDirectories(dir.resolve("grid")), Duration.ofMillis(500))) {
      grid.startTrackerWithRoles();
      Path donor = token(grid, "donor.token", "--role", "donor", "--uses", "2");
      Path other = token(grid, "other.token", "--role", "client", "--apps", "other");
      grid.startPeer("p0", "--token-file", donor.toString());
      grid.startPeer("p1", "--token-file", donor.toString());
      Process sleeper = new ProcessBuilder("setsid", "sleep", "600").redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
      pids.add(sleeper.pid());
      String[] dump = {"criu", "dump", "--app", "job", "--node", "sim", "--set", "e1", "--parts", "2", "--redundancy", "replicate:2",
          "--json", "--part"};
      MiniGrid.Cli first = runToEnd(grid, env, with(dump, "0", Long.toString(sleeper.pid())));
      assertThat(first.exit()).as(first.stderr()).isZero();
      assertThat(first.json().get("set").asText()).isEqualTo("e1");
      assertThat(first.json().get("partsCommitted").asInt()).isEqualTo(1);

      MiniGrid.Node foreign = grid.startCliAs(other, "foreign", env, with(dump, "1", Long.toString(sleeper.pid())));
      commands.add(foreign);
      assertThat(foreign.process().waitFor(2, TimeUnit.MINUTES)).isTrue();
      assertThat(foreign.process().exitValue()).as(foreign.stderr()).isEqualTo(1);
      assertThat(foreign.stderr()).contains("may not touch app job");
      assertThat(sleeper.isAlive()).as("the refused store leaves the tree running").isTrue();
      JsonNode sets = grid.get("/api/v1/sets?app=job&node=sim").json();
      assertThat(sets).hasSize(1);
      assertThat(sets.get(0).get("partsCommitted").asInt()).as("the set still lacks part 1").isEqualTo(1);
      assertThat(versions(grid)).as("and is no version").isEmpty();

      MiniGrid.Cli second = runToEnd(grid, env, with(dump, "1", Long.toString(sleeper.pid())));
      assertThat(second.exit()).as(second.stderr()).isZero();
      assertThat(second.json().get("step").asLong()).as("the app's own token completes it").isEqualTo(1);
      MiniGrid.Node peek = grid.startCliAs(other, "foreign-restore", env, "criu", "restore", "--app", "job", "--node", "sim",
          "--part", "0");
      commands.add(peek);
      assertThat(peek.process().waitFor(2, TimeUnit.MINUTES)).isTrue();
      assertThat(peek.process().exitValue()).isEqualTo(1);
      assertThat(peek.stderr()).contains("may not touch app job");
    }
  }

  /**
   * The restored counter's next ten ticks follow one another with the state an uninterrupted run has, from a tick no later
   * than {@code lastBeforeFailure} + 1: the round it came from was dumped before host 1's dumps began to fail.
   */
  private static void assertCountsOnFromARoundBefore(Path output, int before, long lastBeforeFailure) throws Exception {
    MiniGrid.await("ten ticks of restored " + output.getFileName(), Duration.ofSeconds(30),
        () -> Ticks.of(Files.readString(output)).size() >= before + 10);
    List<long[]> resumed = Ticks.of(Files.readString(output)).subList(before, before + 10);
    long first = resumed.get(0)[0];
    assertThat(first).as("resumed from a dump, not from the start").isGreaterThan(0);
    assertThat(first).as("resumed from a round dumped before the failures began").isLessThanOrEqualTo(lastBeforeFailure + 1);
    long acc = 0;
    for (long i = 0; i < first; i++) {
      acc = (acc * 31 + i) % 1_000_000_007L;
    }
    for (int k = 0; k < resumed.size(); k++) {
      acc = (acc * 31 + resumed.get(k)[0]) % 1_000_000_007L;
      assertThat(resumed.get(k)[0]).as("ticks follow one another").isEqualTo(first + k);
      assertThat(resumed.get(k)[1]).as("tick " + resumed.get(k)[0] + " carries an uninterrupted run's state").isEqualTo(acc);
    }
  }

  private static Path token(MiniGrid grid, String file, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("token", "create", "--data", grid.trackerData().toString()));
    all.addAll(List.of(args));
    MiniGrid.Cli made = grid.trackerCommand(all.toArray(String[]::new));
    assertThat(made.exit()).as(made.stderr()).isZero();
    return Files.writeString(grid.trackerData().resolveSibling(file), made.stdout());
  }

  /** Runs a cairn command with {@code env} to its end, whatever its exit status. */
  private MiniGrid.Cli runToEnd(MiniGrid grid, Map<String, String> env, String... args) throws Exception {
    MiniGrid.Node c = grid.startCli(args[1] + "-" + commands.size(), env, args);
    commands.add(c);
    assertThat(c.process().waitFor(2, TimeUnit.MINUTES)).as(String.join(" ", args) + " ends").isTrue();
    return new MiniGrid.Cli(c.process().exitValue(), c.stdout(), c.stderr());
  }

  private static int count(String text, String what) {
    return text.split(java.util.regex.Pattern.quote(what), -1).length - 1;
  }

  private Path script(String name, String body) throws Exception {
    Path p = Files.writeString(dir.resolve(name + ".sh"), "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    return p;
  }

  private static String[] with(String[] args, String... more) {
    String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return all;
  }

  private static List<JsonNode> versions(MiniGrid grid) throws Exception {
    MiniGrid.Cli r = grid.cli("versions", "--app", "job", "--node", "sim", "--json");
    assertThat(r.exit()).as(r.stderr()).isZero();
    List<JsonNode> out = new ArrayList<>();
    r.json().forEach(out::add);
    return out;
  }

  private static List<JsonNode> pendingSets(MiniGrid grid) throws Exception {
    MiniGrid.Result r = grid.get("/api/v1/sets?app=job&node=sim");
    assertThat(r.status()).as(r.text()).isEqualTo(200);
    List<JsonNode> out = new ArrayList<>();
    r.json().forEach(out::add);
    return out;
  }
}
