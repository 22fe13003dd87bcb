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
import org.cairn.core.chunk.Chunk;
import org.cairn.core.chunk.ChunkSize;
import org.cairn.core.chunk.Chunker;
import org.cairn.core.chunk.Chunking;
import org.cairn.core.chunk.CriuPagemap;
import org.cairn.core.chunk.TarImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CRIU-native checkpoints with real CRIU and real processes: a counter launched with {@code cairn criu launch} is
 * dumped into the grid every interval (each dump a directory version); it and two of four peers are killed, and
 * {@code cairn criu restore} brings it back, detached, from the last dump (code:2+2, two holders gone): its ticks go on
 * from where that dump left them, each carrying the state an uninterrupted run has. Dumps that CRIU does not report
 * as done store nothing, and a version that is not a whole CRIU dump is refused with nothing left running. SIGUSR1 to a
 * launch dumps at once and SIGTERM makes a last dump that ends the program, each committed. A real dump's pagemaps
 * account for its pages files, which the store cuts along them.
 */
class CriuIT {
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
  void aLaunchedCounter_killedWithTwoPeers_isRestoredFromItsLastDumpAndCountsOn() throws Exception {
    Map<String, String> env = Map.of("CAIRN_CRIU", CriuInstall.binary().toString());
    Path program = Files.writeString(dir.resolve("counter.py"), Dmtcp.COUNTER);
    Path output = dir.resolve("counter.out");
    try (MiniGrid grid = new MiniGrid(Files.createDirectories(dir.resolve("grid")), Duration.ofMillis(500))) {
      grid.startTracker();
      List<MiniGrid.Node> peers = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        peers.add(grid.startPeer("p" + i));
      }
      MiniGrid.Node launch = grid.startCli("launch", env, "criu", "launch", "--app", "sim", "--node", "n0", "--interval", "2s",
          "--redundancy", "code:2+2", "--output", output.toString(), "--work-dir", dir.resolve("work").toString(), "--",
          Dmtcp.python(), program.toString());
      commands.add(launch);
      MiniGrid.await("two dumps stored", Duration.ofSeconds(40), () -> launch.stderr().split("and stored it", -1).length > 2,
          launch::stderr);

      launch.process().descendants().forEach(ProcessHandle::destroyForcibly);
      assertThat(launch.process().waitFor(1, TimeUnit.MINUTES)).as("the launch ends with its program").isTrue();
      assertThat(launch.process().exitValue()).as("with the killed program's status").isEqualTo(137);
      List<JsonNode> stored = versions(grid, "sim", "n0");
      assertThat(stored.size()).as("each dump a version").isGreaterThanOrEqualTo(2);
      JsonNode latest = stored.get(stored.size() - 1);
      assertThat(latest.get("kind").asText()).isEqualTo("dir");
      List<long[]> before = Ticks.of(Files.readString(output));
      long lastBefore = before.get(before.size() - 1)[0];
      assertThat(dir.resolve("work")).as("stored dumps leave no images behind").isDirectoryNotContaining("glob:**/dump-*");

      peers.get(0).kill();
      peers.get(1).kill();
      grid.forgetBases(); // restored as on another host: every chunk from the donors
      JsonNode restored = run(grid, env, "criu", "restore", "--app", "sim", "--node", "n0", "--json").json();
      long pid = restored.get("pid").asLong();
      pids.add(pid);
      assertThat(restored.get("step").asLong()).isEqualTo(latest.get("step").asLong());
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).as("the restored counter runs").contains(true);

      MiniGrid.await("ten ticks of the restored counter", Duration.ofSeconds(20),
          () -> Ticks.of(Files.readString(output)).size() >= before.size() + 10);
      List<long[]> resumed = Ticks.of(Files.readString(output)).subList(before.size(), before.size() + 10);
      long first = resumed.get(0)[0];
      assertThat(first).as("resumed from a dump, not from the start").isGreaterThan(0);
      assertThat(first).as("resumed at or before where it was killed").isLessThanOrEqualTo(lastBefore + 1);
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
  }

  @Test
  void aLaunchDumpsOnSigusr1_andOnSigtermMakesALastDumpThatEndsTheProgram() throws Exception {
    Map<String, String> env = Map.of("CAIRN_CRIU", CriuInstall.binary().toString());
    Path program = Files.writeString(dir.resolve("counter.py"), Dmtcp.COUNTER);
    try (MiniGrid grid = new MiniGrid(Files.createDirectories(dir.resolve("grid")), Duration.ofMillis(500))) {
      grid.startTracker();
      grid.startPeer("p0");
      grid.startPeer("p1");
      MiniGrid.Node launch = grid.startCli("launch", env, "criu", "launch", "--app", "sig", "--node", "n0", "--interval", "1h",
          "--redundancy", "replicate:2", "--output", dir.resolve("counter.out").toString(), "--work-dir",
          dir.resolve("work").toString(), "--", Dmtcp.python(), program.toString());
      commands.add(launch);
      Pattern started = Pattern.compile("started .* as (\\d+),");
      MiniGrid.await("the program started", Duration.ofSeconds(30), () -> started.matcher(launch.stderr()).find(), launch::stderr);
      Matcher m = started.matcher(launch.stderr());
      assertThat(m.find()).isTrue();
      long child = Long.parseLong(m.group(1));

      signal("USR1", launch.process().pid());
      MiniGrid.await("a dump on SIGUSR1", Duration.ofSeconds(40), () -> launch.stderr().contains("and stored it"), launch::stderr);
      assertThat(versions(grid, "sig", "n0")).as("one committed dump").hasSize(1);
      assertThat(running(child)).as("SIGUSR1's dump leaves the program running").isTrue();

      signal("TERM", launch.process().pid());
      assertThat(launch.process().waitFor(1, TimeUnit.MINUTES)).as("SIGTERM ends the launch").isTrue();
      assertThat(launch.process().exitValue()).as(launch.stderr()).isEqualTo(143);
      assertThat(versions(grid, "sig", "n0")).as("SIGTERM's last dump, committed").hasSize(2);
      MiniGrid.await("the program ended", Duration.ofSeconds(10), () -> !running(child));
    }
  }

  private static void signal(String name, long pid) throws Exception {
    assertThat(new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start().waitFor()).isZero();
  }

  @Test
  void aDumpCriuDoesNotReportAsDoneStoresNothing_andAVersionThatIsNoWholeDumpRestoresNothing() throws Exception {
    Path criu = CriuInstall.binary();
    try (MiniGrid grid = new MiniGrid(Files.createDirectories(dir.resolve("grid")), Duration.ofMillis(500))) {
      grid.startTracker();
      grid.startPeer("p0");
      grid.startPeer("p1");
      Process sleeper = new ProcessBuilder("setsid", "sleep", "600").redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
      pids.add(sleeper.pid());
      String pid = Long.toString(sleeper.pid());
      String[] dump = {"criu", "dump", "--app", "s", "--node", "n1", "--redundancy", "replicate:2", "--json"};
      MiniGrid.Cli good = run(grid, Map.of("CAIRN_CRIU", criu.toString()), with(dump, pid));
      assertThat(good.json().get("step").asLong()).isEqualTo(1);
      assertThat(sleeper.isAlive()).as("a dump leaves the tree running").isTrue();

      Process gone = new ProcessBuilder("true").start();
      gone.waitFor();
      assertRefused(grid, Map.of("CAIRN_CRIU", criu.toString()), with(dump, Long.toString(gone.pid())), "CRIU exited 1");
      Path failing = script("exit1", "exit 1");
      assertRefused(grid, Map.of("CAIRN_CRIU", failing.toString()), with(dump, pid), "CRIU exited 1");
      // exits 0 and even writes an image, but its log never says the dump finished
      Path silent = script("silent", "while [ $# -gt 0 ]; do [ \"$1\" = -D ] && echo x > \"$2/inventory.img\"; shift; done; exit 0");
      assertRefused(grid, Map.of("CAIRN_CRIU", silent.toString()), with(dump, pid), "does not say 'Dumping finished successfully'");
      assertThat(versions(grid, "s", "n1")).as("failed dumps leave no version").hasSize(1);

      Path notADump = Files.createDirectories(dir.resolve("not-a-dump"));
      Files.writeString(notADump.resolve("notes.txt"), "no images here");
      Path junk = Files.createDirectories(dir.resolve("junk-dump"));
      Files.write(junk.resolve("inventory.img"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
      // a real dump of the sleeper whose memory pages lost their second half
      Path cut = Files.createDirectories(dir.resolve("cut-dump"));
      Process direct = new ProcessBuilder(criu.toString(), "dump", "-t", pid, "-D", cut.toString(), "--leave-running", "-o",
          dir.resolve("direct.log").toString()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      assertThat(direct.waitFor()).as("CRIU's own dump").isZero();
      assertCutAlongItsPagemap(cut);
      try (java.nio.channels.FileChannel pages = java.nio.channels.FileChannel.open(cut.resolve("pages-1.img"),
          java.nio.file.StandardOpenOption.WRITE)) {
        pages.truncate(pages.size() / 2);
      }
      for (Path d : List.of(notADump, junk, cut)) {
        MiniGrid.Cli s = grid.cli("store", "--dir", d.toString(), "--app", "s", "--node", "bad-" + d.getFileName(), "--redundancy", "replicate:2");
        assertThat(s.exit()).as(s.stderr()).isZero();
      }
      assertRestoreRefused(grid, criu, "bad-not-a-dump", "is not a CRIU dump (it has no inventory.img)");
      assertRestoreRefused(grid, criu, "bad-junk-dump", "CRIU could not restore s.bad-junk-dump.1: CRIU exited 1");
      sleeper.destroyForcibly();
      sleeper.waitFor();
      // CRIU 4.2's restorer spins on the missing pages: the timeout ends it and its tasks
      assertRestoreRefused(grid, criu, "bad-cut-dump", "CRIU could not restore s.bad-cut-dump.1: CRIU did not finish within 5 s");
      assertThat(running(sleeper.pid())).as("nothing of the half-restored tree (its pid is the dumped one) runs on").isFalse();
    }
  }

  /**
   * A real dump's pagemaps account for every byte of their pages files, and the store's chunker cuts each pages file
   * along its pagemap: every run of pages that is not contiguous with the one before it starts a chunk keyed by its address.
   */
  private static void assertCutAlongItsPagemap(Path dump) throws Exception {
    List<Long> runStarts = new ArrayList<>();
    try (java.util.stream.Stream<Path> files = Files.list(dump)) {
      for (Path p : files.filter(f -> f.getFileName().toString().startsWith("pagemap-")).toList()) {
        CriuPagemap.Pagemap map = CriuPagemap.read(p);
        assertThat(Files.size(dump.resolve(map.pagesFile()))).as(p + "'s present pages").isEqualTo(map.presentBytes());
        long end = -1;
        for (CriuPagemap.Run r : map.runs()) {
          if (r.present() && r.vaddr() != end) {
            runStarts.add(r.vaddr());
          }
          end = r.present() ? r.end() : -1;
        }
      }
    }
    assertThat(runStarts).as("the dump has memory").isNotEmpty();
    java.util.Set<Long> keyed = new java.util.HashSet<>();
    try (java.io.InputStream tar = TarImages.stream(dump)) {
      Chunker c = Chunking.ALIGNED.chunker(tar, ChunkSize.DEFAULT, null);
      for (Chunk ch = c.next(); ch != null; ch = c.next()) {
        keyed.add(ch.address() & ((1L << 48) - 1));
      }
    }
    assertThat(keyed).as("chunks keyed by address").containsAll(runStarts);
  }

  private void assertRestoreRefused(MiniGrid grid, Path criu, String node, String message) throws Exception {
    MiniGrid.Node r = grid.startCli("restore-" + node, Map.of("CAIRN_CRIU", criu.toString()), "criu", "restore", "--app", "s",
        "--node", node, "--timeout", "5s");
    commands.add(r);
    boolean ended = r.process().waitFor(2, TimeUnit.MINUTES);
    assertThat(ended).as("the restore of " + node + " ends; so far: " + r.stderr() + " / running: "
        + r.process().descendants().map(h -> h.pid() + " " + h.info().commandLine().orElse("?")).toList()).isTrue();
    assertThat(r.process().exitValue()).as(r.stderr()).isEqualTo(1);
    assertThat(r.stderr()).contains(message);
  }

  private void assertRefused(MiniGrid grid, Map<String, String> env, String[] args, String reason) throws Exception {
    MiniGrid.Node r = grid.startCli("dump", env, args);
    commands.add(r);
    assertThat(r.process().waitFor(1, TimeUnit.MINUTES)).isTrue();
    assertThat(r.process().exitValue()).as(r.stderr()).isEqualTo(1);
    assertThat(r.stderr()).contains("nothing stored").contains(reason);
  }

  /** Runs a cairn command with {@code env} to its end; it must succeed. */
  private MiniGrid.Cli run(MiniGrid grid, Map<String, String> env, String... args) throws Exception {
    MiniGrid.Node c = grid.startCli(args[1], env, args);
    commands.add(c);
    assertThat(c.process().waitFor(2, TimeUnit.MINUTES)).as(String.join(" ", args) + " ends").isTrue();
    assertThat(c.process().exitValue()).as(c.stderr()).isZero();
    return new MiniGrid.Cli(0, c.stdout(), c.stderr());
  }

  /** Whether a process with this pid runs (a zombie left to an init that does not reap does not). */
  private static boolean running(long pid) throws Exception {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    if (!Files.exists(stat)) {
      return false;
    }
    try {
      String s = Files.readString(stat);
      return s.charAt(s.lastIndexOf(')') + 2) != 'Z';
    } catch (java.nio.file.NoSuchFileException gone) {
      return false;
    }
  }

  private Path script(String name, String body) throws Exception {
    Path p = Files.writeString(dir.resolve(name + ".sh"), "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    return p;
  }

  private static String[] with(String[] args, String last) {
    String[] all = java.util.Arrays.copyOf(args, args.length + 1);
    all[args.length] = last;
    return all;
  }

  private static List<JsonNode> versions(MiniGrid grid, String app, String node) throws Exception {
    MiniGrid.Cli r = grid.cli("versions", "--app", app, "--node", node, "--json");
    assertThat(r.exit()).as(r.stderr()).isZero();
    List<JsonNode> out = new ArrayList<>();
    r.json().forEach(out::add);
    return out;
  }
}
