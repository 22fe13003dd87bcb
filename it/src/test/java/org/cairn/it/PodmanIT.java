package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Podman containers checkpointed into a real grid (tracker and six peers) with real Podman, runc and CRIU 4.2: a busybox
 * counter (an image made here by {@code podman import} of a busybox-static rootfs: no registry) exported by Podman and
 * stored with {@code cairn store F.tar}, fetched back and restored with {@code podman container restore --import}, counts
 * on from its checkpoint; {@code cairn podman checkpoint} twice sends far fewer bytes the second time (the export's CRIU
 * pages cut along their pagemap, chunks paired by address) and {@code cairn podman restore} brings the container back; a
 * checkpoint Podman cannot make stores nothing and leaves no export behind. Needs root, podman, runc, /bin/busybox
 * (busybox-static) and CRIU 4.2 ({@link CriuInstall}); skipped with a message without them, unless
 * CAIRN_REQUIRE_PODMAN_TESTS is set (as .ci/run does).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PodmanIT {
  private static final String RUNC = "runc";
  /**
   * Holds 4 MB of random text in a shell variable (memory the next checkpoint finds unchanged) and prints {@code tick N N}
   * five times a second; a restarted counter would print tick 1 again.
   */
  private static final String COUNTER = "x=$(head -c 3000000 /dev/urandom | base64); i=0; "
      + "while :; do i=$((i+1)); echo \"tick $i $i\"; sleep 0.2; done";

  @TempDir
  static Path dir;

  private Path criu;
  private MiniGrid grid;
  private String image;
  private final String suffix = UUID.randomUUID().toString().substring(0, 8);
  private final List<String> containers = new ArrayList<>();
  private final List<MiniGrid.Node> commands = new ArrayList<>();

  @BeforeAll
  void gridAndImage() throws Exception {
    criu = CriuInstall.binary();
    requirePodman();
    image = "localhost/cairn-it-busybox:" + suffix;
    Path rootfs = busyboxRootfs(dir.resolve("rootfs.tar"));
    podman("import", rootfs.toString(), image);
    grid = new MiniGrid(Files.createDirectories(dir.resolve("grid")), Duration.ofMillis(500));
    grid.startTracker();
    grid.startPeersRunning(6);
  }

  @AfterAll
  void removeContainersAndImage() throws Exception {
    for (MiniGrid.Node c : commands) {
      c.process().destroyForcibly();
    }
    for (String c : containers) {
      run(List.of("podman", "rm", "-f", "-t", "0", c));
    }
    if (image != null) {
      run(List.of("podman", "rmi", "-f", image));
    }
    if (grid != null) {
      grid.close();
    }
  }

  @Test
  void anExportStoredWithCairnStoreAndFetchedBack_restoresWithPodmanAndCountsOnFromItsCheckpoint() throws Exception {
    String name = startCounter("contract");
    Path export = dir.resolve("contract.tar");
    podman("container", "checkpoint", "--export=" + export, "--compress=none", name);
    int atCheckpoint = lastTick(name);
    MiniGrid.Cli stored = grid.cli("store", export.toString(), "--app", "pm", "--node", "contract", "--json");
    assertThat(stored.exit()).as(stored.stderr()).isZero();
    podman("rm", name);
    Files.delete(export);

    grid.forgetBases(); // fetched as on another host: every chunk from the donors
    Path fetched = dir.resolve("fetched.tar");
    MiniGrid.Cli fetch = grid.cli("fetch", "--app", "pm", "--node", "contract", "-o", fetched.toString());
    assertThat(fetch.exit()).as(fetch.stderr()).isZero();
    podman("container", "restore", "--import=" + fetched);
    assertCountsOnPast(name, atCheckpoint);
  }

  @Test
  void twoCairnPodmanCheckpoints_sendFarLessTheSecondTime_andCairnPodmanRestoreBringsTheContainerBack() throws Exception {
    String name = startCounter("twice");
    JsonNode first = cairn("podman", "checkpoint", "--app", "pm", "--node", "twice", "--leave-running", "--json", "--work-dir",
        dir.resolve("work").toString(), name).json();
    int ticks = lastTick(name);
    MiniGrid.await("the counter goes on", Duration.ofSeconds(10), () -> lastTick(name) > ticks + 3);
    JsonNode second = cairn("podman", "checkpoint", "--app", "pm", "--node", "twice", "--json", "--work-dir",
        dir.resolve("work").toString(), name).json();
    int atCheckpoint = lastTick(name);
    long sent1 = first.get("sentBytes").asLong();
    long sent2 = second.get("sentBytes").asLong();
    System.out.printf("podman checkpoints of a busybox counter: %d then %d bytes sent (exports of %d and %d bytes)%n", sent1,
        sent2, first.get("size").asLong(), second.get("size").asLong());
    assertThat(second.get("step").asLong()).isEqualTo(first.get("step").asLong() + 1);
    assertThat(sent2).as("the second export's pages pair by address (unchanged: deduped) and its files delta by name")
        .isLessThan(sent1 / 10);
    assertThat(dir.resolve("work")).as("no export left behind").isDirectoryNotContaining("glob:**/*.tar");

    podman("rm", name);
    grid.forgetBases();
    JsonNode restored = cairn("podman", "restore", "--app", "pm", "--node", "twice", "--json", "--work-dir",
        dir.resolve("work").toString()).json();
    assertThat(restored.get("step").asLong()).isEqualTo(second.get("step").asLong());
    assertThat(restored.get("container").asText()).isNotBlank();
    assertCountsOnPast(name, atCheckpoint);
  }

  @Test
  void aCheckpointPodmanCannotMake_storesNothingAndLeavesNoExportBehind() throws Exception {
    Path work = dir.resolve("failing-work");
    MiniGrid.Node c = grid.startCli("failing", Map.of("CAIRN_CRIU", criu.toString()), "podman", "checkpoint", "--app", "pm",
        "--node", "failing", "--work-dir", work.toString(), "no-such-container-" + suffix);
    commands.add(c);
    assertThat(c.process().waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(c.process().exitValue()).as(c.stderr()).isEqualTo(1);
    assertThat(c.stderr()).contains("nothing stored").contains("podman exited").contains("no-such-container-" + suffix);
    assertThat(work).as("the private directory and its tar are gone").isEmptyDirectory();
    MiniGrid.Cli versions = grid.cli("versions", "--app", "pm", "--node", "failing", "--json");
    assertThat(versions.exit() == 0 ? versions.json().size() : 0).as("no version: " + versions.stdout() + versions.stderr()).isZero();
  }

  /** Waits until the restored container {@code name} has ticked past {@code atCheckpoint}, never from 1 again. */
  private void assertCountsOnPast(String name, int atCheckpoint) throws Exception {
    MiniGrid.await("the restored counter ticks on", Duration.ofSeconds(20), () -> lastTick(name) > atCheckpoint + 3,
        () -> logs(name));
    List<long[]> ticks = Ticks.of(logs(name));
    for (int k = 0; k < ticks.size(); k++) {
      assertThat(ticks.get(k)[0]).as("tick %d of the log: one count, from 1, never restarted", k).isEqualTo(k + 1);
    }
  }

  private String startCounter(String role) throws Exception {
    String name = "cairn-it-" + role + "-" + suffix;
    containers.add(name);
    podman("--runtime", RUNC, "run", "-d", "--name", name, "--network", "none", "--ulimit", "nofile=1024:1024", "--ulimit",
        "nproc=4096:4096", image, "/bin/sh", "-c", COUNTER);
    MiniGrid.await("the counter ticks", Duration.ofSeconds(20), () -> lastTick(name) >= 3, () -> logs(name));
    return name;
  }

  private int lastTick(String name) throws Exception {
    return Ticks.last(logs(name));
  }

  private String logs(String name) throws Exception {
    return run(List.of("podman", "logs", name)).stdout();
  }

  /** Runs a cairn command with CRIU 4.2 named to it to its end; it must succeed. */
  private MiniGrid.Cli cairn(String... args) throws Exception {
    // a name of its own: a second run under one name would append to the first's output
    MiniGrid.Node c = grid.startCli(args[1] + "-" + commands.size(), Map.of("CAIRN_CRIU", criu.toString()), args);
    commands.add(c);
    assertThat(c.process().waitFor(2, TimeUnit.MINUTES)).as(String.join(" ", args) + " ends").isTrue();
    assertThat(c.process().exitValue()).as(c.stderr()).isZero();
    return new MiniGrid.Cli(0, c.stdout(), c.stderr());
  }

  /** Runs podman with CRIU 4.2 first on its PATH (runc runs criu from PATH); it must succeed. */
  private void podman(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("podman"));
    cmd.addAll(List.of(args));
    MiniGrid.Cli r = run(cmd);
    assertThat(r.exit()).as(String.join(" ", cmd) + ": " + r.stderr()).isZero();
  }

  private MiniGrid.Cli run(List<String> cmd) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    pb.environment().put("PATH", criu.getParent() + ":" + System.getenv("PATH"));
    Path out = Files.createTempFile(dir, "podman", ".out");
    Path err = Files.createTempFile(dir, "podman", ".err");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", cmd) + " did not finish in 2 minutes");
    }
    return new MiniGrid.Cli(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** A rootfs of /bin/busybox and its applets as links, as a tar for podman import. */
  private static Path busyboxRootfs(Path tar) throws Exception {
    Process list = new ProcessBuilder("/bin/busybox", "--list").redirectErrorStream(true).start();
    List<String> applets = new String(list.getInputStream().readAllBytes()).lines().filter(a -> !a.equals("busybox")).toList();
    assertThat(list.waitFor()).isZero();
    try (OutputStream out = Files.newOutputStream(tar); TarArchiveOutputStream t = new TarArchiveOutputStream(out)) {
      TarArchiveEntry bin = new TarArchiveEntry("bin/");
      t.putArchiveEntry(bin);
      t.closeArchiveEntry();
      TarArchiveEntry busybox = new TarArchiveEntry("bin/busybox");
      busybox.setSize(Files.size(Path.of("/bin/busybox")));
      busybox.setMode(0100755);
      t.putArchiveEntry(busybox);
      Files.copy(Path.of("/bin/busybox"), t);
      t.closeArchiveEntry();
      for (String a : applets) {
        TarArchiveEntry link = new TarArchiveEntry("bin/" + a, TarConstants.LF_SYMLINK);
        link.setLinkName("busybox");
        t.putArchiveEntry(link);
        t.closeArchiveEntry();
      }
    }
    return tar;
  }

  /** Podman, runc and a static busybox, as root; else skipped (or failed, with CAIRN_REQUIRE_PODMAN_TESTS). */
  private static void requirePodman() {
    String missing = null;
    if (!"root".equals(System.getProperty("user.name"))) {
      missing = "Podman checkpoints need root";
    } else if (!onPath("podman") || !onPath(RUNC)) {
      missing = "podman or runc is not installed (Debian: apt-get install podman runc)";
    } else if (!Files.isExecutable(Path.of("/bin/busybox"))) {
      missing = "/bin/busybox is missing (Debian: apt-get install busybox-static)";
    }
    if (missing == null) {
      return;
    }
    if (System.getenv("CAIRN_REQUIRE_PODMAN_TESTS") != null) {
      throw new AssertionError(missing);
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(false, missing + "; skipped");
  }

  private static boolean onPath(String program) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
        return true;
      }
    }
    return false;
  }
}
