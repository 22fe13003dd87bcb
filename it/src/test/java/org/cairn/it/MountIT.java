package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cairn mount} with real processes, a real FUSE mount and the tools a job uses
 * (cp, dd, mv, rm, df, cmp): write, close, list, read back byte-identical; dd with odd block sizes;
 * a killed writer leaves no version; a directory commits by rename; rm deletes; two writers on
 * different nodes at once; SIGTERM unmounts; a killed mount leaves no half version.
 */
class MountIT {
  private static final Path FUSERMOUNT = Path.of("/usr/bin/fusermount3");

  @TempDir
  Path root;

  private MiniGrid grid;
  private Path dir;
  private MiniGrid.Node mount;

  @BeforeEach
  void startGrid() throws Exception {
    MiniGrid.requireTools("the mount test needs FUSE: apt-get install -y fuse3 libfuse2 (.ci/run installs them)", FUSERMOUNT);
    MiniGrid.requireTools("the mount test needs /dev/fuse and root", Files.exists(Path.of("/dev/fuse"))
        && "root".equals(System.getProperty("user.name")) ? FUSERMOUNT : Path.of("/dev/fuse-missing-or-not-root"));
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker();
    for (int i = 0; i < 6; i++) {
      grid.startPeer("p" + i);
    }
    MiniGrid.await("6 peers RUNNING", Duration.ofSeconds(30),
        () -> grid.peers().size() == 6 && grid.peers().findValues("state").stream().allMatch(s -> s.asText().equals("RUNNING")));
    dir = Files.createDirectories(root.resolve("mnt"));
  }

  @AfterEach
  void stop() throws Exception {
    if (dir != null && mounted()) {
      new ProcessBuilder(FUSERMOUNT.toString(), "-u", "-z", dir.toString()).inheritIO().start().waitFor();
    }
    if (grid != null) {
      grid.close();
    }
  }

  private void startMount() throws Exception {
    mount = grid.startCli("mount", Map.of(), "mount", "--app", "heat", "--cache-dir", root.resolve("mount-cache").toString(),
        dir.toString());
    MiniGrid.await("the mount", Duration.ofSeconds(30), () -> mount.stdout().contains("mounted heat at " + dir) && mounted(),
        () -> mount.stderr());
  }

  private boolean mounted() throws Exception {
    return Files.readAllLines(Path.of("/proc/mounts")).stream().anyMatch(l -> l.split(" ")[1].equals(dir.toString()));
  }

  private static int run(String... cmd) throws Exception {
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
  }

  private JsonNode versions(String node) throws Exception {
    MiniGrid.Cli v = grid.cli("versions", "--app", "heat", "--node", node, "--json");
    assertThat(v.exit()).as(v.stderr()).isZero();
    return v.json();
  }

  private List<Long> steps(String node) throws Exception {
    List<Long> steps = new ArrayList<>();
    versions(node).forEach(v -> steps.add(v.get("step").asLong()));
    return steps;
  }

  @Test
  void filesAndDirectoriesAreStoredAtTheCloseReadBackAndDeleted() throws Exception {
    startMount();
    Path img = Files.write(root.resolve("ckpt.img"), MemoryImages.image(23, 12 << 20));

    // a node's directory before its first version; cp then the contract's checks
    Files.createDirectory(dir.resolve("n1"));
    assertThat(Files.isDirectory(dir.resolve("n1"))).isTrue();
    assertThat(run("cp", img.toString(), dir.resolve("n1/ckpt.img").toString())).isZero();
    assertThat(steps("n1")).containsExactly(1L);
    assertThat(run("cmp", dir.resolve("n1/latest").toString(), img.toString())).isZero();
    assertThat(Files.isSymbolicLink(dir.resolve("n1/latest"))).isTrue();
    assertThat(Files.size(dir.resolve("n1/1"))).isEqualTo(Files.size(img));

    // dd with odd block sizes, both ways (dd dup2s its output: the first close is not the last)
    Files.createDirectory(dir.resolve("n2"));
    assertThat(run("dd", "if=" + img, "of=" + dir.resolve("n2/x"), "bs=12345")).isZero();
    assertThat(run("dd", "if=" + dir.resolve("n2/latest"), "of=" + root.resolve("dd.out"), "bs=7777")).isZero();
    assertThat(Files.readAllBytes(root.resolve("dd.out"))).isEqualTo(Files.readAllBytes(img));

    // two writers on different nodes at once
    Files.createDirectory(dir.resolve("n3"));
    Files.createDirectory(dir.resolve("n4"));
    Path img2 = Files.write(root.resolve("ckpt2.img"), MemoryImages.image(24, 9 << 20));
    Process a = new ProcessBuilder("cp", img.toString(), dir.resolve("n3/a").toString()).start();
    Process b = new ProcessBuilder("cp", img2.toString(), dir.resolve("n4/b").toString()).start();
    assertThat(a.waitFor()).isZero();
    assertThat(b.waitFor()).isZero();
    assertThat(run("cmp", dir.resolve("n3/1").toString(), img.toString())).isZero();
    assertThat(run("cmp", dir.resolve("n4/1").toString(), img2.toString())).isZero();

    // a directory checkpoint: written under .new-STEP, committed by the rename
    Path staged = Files.createDirectory(dir.resolve("n1/.new-5"));
    assertThat(run("cp", img2.toString(), staged.resolve("rank0.dmtcp").toString())).isZero();
    Files.createDirectory(staged.resolve("sub"));
    Files.writeString(staged.resolve("sub/note.txt"), "restart here\n");
    assertThat(steps("n1")).as("nothing before the rename").containsExactly(1L);
    assertThat(run("mv", staged.toString(), dir.resolve("n1/5").toString())).isZero();
    assertThat(steps("n1")).containsExactly(1L, 5L);
    assertThat(versions("n1").get(1).get("kind").asText()).isEqualTo("dir");
    assertThat(Files.readSymbolicLink(dir.resolve("n1/latest")).toString()).isEqualTo("5");
    assertThat(run("cmp", dir.resolve("n1/latest/rank0.dmtcp").toString(), img2.toString())).isZero();
    assertThat(Files.readString(dir.resolve("n1/5/sub/note.txt"))).isEqualTo("restart here\n");

    // a writer killed mid-file leaves no version
    Files.createDirectory(dir.resolve("n5"));
    Process dd = new ProcessBuilder("dd", "if=/dev/urandom", "of=" + dir.resolve("n5/killed"), "bs=64k", "count=100000")
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    MiniGrid.await("the writer well under way", Duration.ofSeconds(30),
        () -> Files.exists(dir.resolve("n5/killed")) && Files.size(dir.resolve("n5/killed")) > (4 << 20));
    dd.destroyForcibly().waitFor();
    MiniGrid.await("the killed writer's store abandoned", Duration.ofSeconds(30),
        () -> mount.stderr().contains("n5/killed: not stored") && !Files.exists(dir.resolve("n5/killed")));
    assertThat(mount.stderr()).contains("killed by signal 9");
    assertThat(steps("n5")).isEmpty();
    try (java.util.stream.Stream<Path> left = Files.list(dir.resolve("n5"))) {
      assertThat(left).isEmpty();
    }

    // rm and rmdir delete versions; the link follows; writes into committed versions are refused
    assertThat(run("sh", "-c", "echo x > " + dir.resolve("n1/1"))).isNotZero();
    assertThat(run("rm", dir.resolve("n1/1").toString())).isZero();
    assertThat(steps("n1")).containsExactly(5L);
    assertThat(run("rmdir", dir.resolve("n1/5").toString())).isZero();
    assertThat(steps("n1")).isEmpty();

    // df shows the donors' space
    ProcessBuilder df = new ProcessBuilder("df", "-B1", "--output=size", dir.toString());
    String out = new String(df.start().getInputStream().readAllBytes()).trim();
    assertThat(Long.parseLong(out.substring(out.lastIndexOf('\n') + 1).trim())).isPositive();

    // SIGTERM unmounts
    int exit = mount.stop();
    assertThat(exit).isIn(0, 143);
    assertThat(mounted()).isFalse();
  }

  @Test
  void aMountKilledMidWriteLeavesNoVersion() throws Exception {
    startMount();
    Files.createDirectory(dir.resolve("n1"));
    Process dd = new ProcessBuilder("dd", "if=/dev/urandom", "of=" + dir.resolve("n1/big"), "bs=64k", "count=100000")
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    MiniGrid.await("the writer well under way", Duration.ofSeconds(30),
        () -> Files.exists(dir.resolve("n1/big")) && Files.size(dir.resolve("n1/big")) > (4 << 20));
    mount.kill();
    assertThat(dd.waitFor()).as("the writer sees the mount gone").isNotZero();
    assertThat(run(FUSERMOUNT.toString(), "-u", "-z", dir.toString())).isZero();
    assertThat(steps("n1")).isEmpty();
    // a new mount serves the app again
    startMount();
    Files.createDirectory(dir.resolve("n1"));
    assertThat(run("cp", "/etc/hostname", dir.resolve("n1/small").toString())).isZero();
    assertThat(steps("n1")).containsExactly(1L);
    // fusermount3 -u ends the foreground mount cleanly
    assertThat(run(FUSERMOUNT.toString(), "-u", dir.toString())).isZero();
    assertThat(mount.process().waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(mount.process().exitValue()).isZero();
    assertThat(mount.stdout()).contains("unmounted " + dir);
  }

  /** stdchk's use: DMTCP writes its checkpoint straight into the mount, and dmtcp_restart reads it from NODE/latest/. */
  @Test
  void dmtcpCheckpointsIntoTheMountAndRestartsFromLatest() throws Exception {
    Path bin = Dmtcp.bin();
    startMount();
    Files.createDirectory(dir.resolve("n0"));
    Path staged = Files.createDirectory(dir.resolve("n0/.new-1"));
    Path program = Files.writeString(root.resolve("counter.py"), Dmtcp.COUNTER);
    Launch launch = launchTicking(bin, staged, program);
    Path out = launch.out();
    try {
      assertThat(run(bin.resolve("dmtcp_command").toString(), "--coord-port", launch.port(), "--bcheckpoint")).isZero();
      long atCheckpoint = ticks(out).size();
      assertThat(run("mv", staged.toString(), dir.resolve("n0/1").toString())).isZero();
      assertThat(steps("n0")).containsExactly(1L);
      MiniGrid.await("a few more ticks", Duration.ofSeconds(30), () -> ticks(out).size() >= atCheckpoint + 5);
    } finally {
      launch.stop(bin);
    }
    long lastBefore = ticks(out).size() - 1;

    Path image;
    try (java.util.stream.Stream<Path> files = Files.list(dir.resolve("n0/latest"))) {
      image = files.filter(f -> f.getFileName().toString().endsWith(".dmtcp")).findFirst().orElseThrow();
    }
    Path out2 = root.resolve("restart.out");
    Process restart = dmtcp(bin, out2, "dmtcp_restart", "--new-coordinator", "--coord-port", "0", "--ckptdir",
        Files.createDirectories(root.resolve("ckpt2")).toString(), image.toString());
    try {
      MiniGrid.await("the restarted job's ticks", Duration.ofMinutes(1), () -> ticks(out2).size() >= 3,
          () -> Files.readString(root.resolve("restart.out.err")));
    } finally {
      restart.descendants().forEach(ProcessHandle::destroyForcibly);
      restart.destroyForcibly().waitFor();
    }
    List<Long> resumed = ticks(out2);
    assertThat(resumed.get(0)).as("resumed from the checkpoint, not from the start").isPositive()
        .isLessThanOrEqualTo(lastBefore);
    for (int k = 1; k < resumed.size(); k++) {
      assertThat(resumed.get(k)).isEqualTo(resumed.get(0) + k);
    }
  }

  /** A program running under dmtcp_launch: its output file and its coordinator's port. */
  private record Launch(Process job, Path out, String port) {
    void stop(Path bin) throws Exception {
      if (!port.isEmpty()) {
        run(bin.resolve("dmtcp_command").toString(), "--coord-port", port, "--quit");
      }
      job.descendants().forEach(ProcessHandle::destroyForcibly);
      job.destroyForcibly().waitFor();
    }
  }

  /**
   * Launches the counter under DMTCP and waits for its first ticks. Nothing of Cairn's runs before
   * the first checkpoint, so a launch that printed nothing in 30 s (once in CI, on a loaded machine)
   * is DMTCP's: it is reported on stderr with what it left, stopped, and launched once more.
   */
  private Launch launchTicking(Path bin, Path staged, Path program) throws Exception {
    for (int attempt = 1; ; attempt++) {
      Path port = root.resolve("coordinator-" + attempt + ".port");
      Path out = root.resolve("job-" + attempt + ".out");
      Process job = dmtcp(bin, out, "dmtcp_launch", "--new-coordinator", "--coord-port", "0", "--port-file",
          port.toString(), "--ckptdir", staged.toString(), "--no-gzip", Dmtcp.python(), program.toString());
      try {
        MiniGrid.await("the job's ticks", Duration.ofSeconds(30), () -> ticks(out).size() >= 5 && Files.size(port) > 0,
            () -> launchSeen(job, out, port));
        return new Launch(job, out, Files.readString(port).strip());
      } catch (AssertionError e) {
        String coordinator = Files.exists(port) ? Files.readString(port).strip() : "";
        new Launch(job, out, coordinator).stop(bin);
        if (attempt == 2) {
          throw e;
        }
        System.err.println("MountIT: DMTCP launch " + attempt + " printed no ticks, launching again: " + e.getMessage());
      }
    }
  }

  /** What a launch that printed no ticks left behind: its status, the coordinator's port file and DMTCP's messages. */
  private static String launchSeen(Process job, Path out, Path port) throws Exception {
    Path err = Path.of(out + ".err");
    return ticks(out).size() + " ticks; dmtcp_launch " + (job.isAlive() ? "running" : "exited " + job.exitValue())
        + "; port file " + (Files.exists(port) ? "'" + Files.readString(port).strip() + "'" : "absent")
        + "; its stderr: " + (Files.exists(err) ? Files.readString(err) : "absent");
  }

  private static Process dmtcp(Path bin, Path out, String command, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(bin.resolve(command).toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(Path.of(out + ".err").toFile());
    pb.environment().put("PATH", bin + java.io.File.pathSeparator + System.getenv("PATH"));
    return pb.start();
  }

  private static List<Long> ticks(Path out) throws Exception {
    List<Long> t = new ArrayList<>();
    if (Files.exists(out)) {
      for (String line : Files.readAllLines(out)) {
        if (line.matches("tick \\d+ \\d+")) {
          t.add(Long.parseLong(line.split(" ")[1]));
        }
      }
    }
    return t;
  }
}
