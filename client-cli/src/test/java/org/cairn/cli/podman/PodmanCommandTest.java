package org.cairn.cli.podman;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.cairn.cli.CairnCli;
import org.cairn.cli.context.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code cairn podman}'s flags, and what it does around Podman with a stand-in podman (a script): the export is stored
 * only when Podman exits 0 with a tar written, from a 0600 file in a private directory that is removed either way, and
 * Podman runs with a directory holding only {@code criu} first on its PATH.
 */
class PodmanCommandTest {
  @TempDir
  Path dir;

  /** The innermost command {@code args} parse to (nothing runs). */
  private static CommandLine parsed(String... args) {
    CommandLine cli = CairnCli.commandLine(Session.local(), args);
    CommandLine.ParseResult r = cli.parseArgs(args);
    while (r.hasSubcommand()) {
      r = r.subcommand();
    }
    return r.commandSpec().commandLine();
  }

  @Test
  void checkpointTakesOneContainer_andRestoreALatestOrGivenStepAndAName() {
    PodmanCommand.Checkpoint c = parsed("podman", "checkpoint", "--app", "a", "--node", "n", "-R", "--json", "web").getCommand();
    assertThat(c.container).isEqualTo("web");
    assertThat(c.leaveRunning).isTrue();
    assertThat(c.timeout).isEqualTo("30m");
    assertThat(((PodmanCommand.Checkpoint) parsed("podman", "checkpoint", "--app", "a", "--node", "n", "web").getCommand())
        .leaveRunning).as("Podman's default: the container stops").isFalse();
    assertThatThrownBy(() -> parsed("podman", "checkpoint", "--app", "a", "--node", "n"))
        .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("CONTAINER");
    assertThatThrownBy(() -> parsed("podman", "checkpoint", "--node", "n", "web")).isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("--app");
    PodmanRestore r = parsed("podman", "restore", "--app", "a", "--node", "n", "--step", "3", "--name", "web2").getCommand();
    assertThat(r.stepOption.step).isEqualTo(3);
    assertThat(r.name).isEqualTo("web2");
    PodmanRestore latest = parsed("podman", "restore", "--app", "a", "--node", "n").getCommand();
    assertThat(latest.stepOption.step).as("latest").isLessThanOrEqualTo(0);
    assertThat(latest.name).isNull();
    assertThatThrownBy(() -> parsed("podman", "restore", "--app", "a", "--node", "n", "extra"))
        .isInstanceOf(CommandLine.ParameterException.class);
  }

  @Test
  void aTimeoutUnderASecondOrNotADurationIsAUsageError() {
    CommandLine cl = parsed("podman", "checkpoint", "--app", "a", "--node", "n", "--timeout", "500ms", "web");
    assertThatThrownBy(() -> PodmanCommand.podman(cl, "500ms")).isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("--timeout");
    assertThatThrownBy(() -> PodmanCommand.podman(cl, "soon")).isInstanceOf(CommandLine.ParameterException.class);
  }

  @Test
  void theBinaryIsCairnPodmanWhenSetElsePodmanOnPath_andAnythingElseIsAClearError() throws IOException {
    Path named = script("my-podman", "exit 0");
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path onPath = script("bin/podman", "exit 0");
    assertThat(Podman.find(Map.of("CAIRN_PODMAN", named.toString(), "PATH", bin.toString()))).isEqualTo(named);
    assertThat(Podman.find(Map.of("PATH", "/nonexistent:" + bin))).isEqualTo(onPath);
    assertThat(Podman.find(Map.of("CAIRN_PODMAN", " ", "PATH", bin.toString()))).isEqualTo(onPath);
    Path plain = Files.writeString(dir.resolve("plain"), "not a program");
    assertThatThrownBy(() -> Podman.find(Map.of("CAIRN_PODMAN", plain.toString()))).isInstanceOf(IOException.class)
        .hasMessage("CAIRN_PODMAN=" + plain + " is not an executable file");
    assertThatThrownBy(() -> Podman.find(Map.of("PATH", dir.resolve("none").toString()))).isInstanceOf(IOException.class)
        .hasMessageStartingWith("podman is not on PATH and CAIRN_PODMAN is not set");
  }

  @Test
  void podmanRunsWithOnlyCairnsCriuFirstOnItsPath_andItsArgumentsAsPodmanTakesThem() throws Exception {
    Path criu = script("criu-4.2", "echo criu 4.2");
    Path seen = dir.resolve("seen");
    // the stand-in writes what it was given and which criu its PATH finds, then the export
    Path podman = script("podman", "echo \"$@\" > " + seen + "; command -v criu >> " + seen + "; criu >> " + seen
        + "; ls \"$(dirname \"$(command -v criu)\")\" >> " + seen + "; for a; do case $a in --export=*) echo tar > \"${a#--export=}\";; esac; done");
    Path scratch = Files.createDirectories(dir.resolve("scratch"));
    Path tar = scratch.resolve("export.tar");
    Podman p = new Podman(podman, criu, Duration.ofSeconds(30));
    assertThat(p.checkpoint("-web", tar, true, scratch).ok()).isTrue();
    List<String> lines = Files.readAllLines(seen);
    assertThat(lines.get(0)).isEqualTo("container checkpoint --export=" + tar + " --compress=none --leave-running -- -web");
    assertThat(lines.get(1)).isEqualTo(scratch.resolve("criu-bin").resolve("criu").toString());
    assertThat(lines.get(2)).as("the link runs Cairn's CRIU").isEqualTo("criu 4.2");
    assertThat(lines.subList(3, lines.size())).as("nothing else is put first on PATH").containsExactly("criu");
    assertThat(p.criuFirst(scratch, "/usr/bin:/bin")).isEqualTo(scratch.resolve("criu-bin") + ":/usr/bin:/bin");
    assertThat(p.restore(tar, "web2", scratch).ok()).isTrue();
    assertThat(Files.readAllLines(seen).get(0)).isEqualTo("container restore --import=" + tar + " --name=web2");
  }

  @Test
  void aCheckpointIsStoredOnlyWhenPodmanExitsZeroWithATar_fromA0600FileThatIsRemovedEitherWay() throws Exception {
    Path criu = script("criu", "exit 0");
    Path work = dir.resolve("work");
    List<String> stored = new ArrayList<>();
    PodmanCheckpointer.Storer storer = tar -> {
      assertThat(Files.getPosixFilePermissions(tar)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
      assertThat(Files.getPosixFilePermissions(tar.getParent())).isEqualTo(PosixFilePermissions.fromString("rwx------"));
      stored.add(Files.readString(tar));
      return null;
    };
    String export = "for a; do case $a in --export=*) echo exported > \"${a#--export=}\";; esac; done";
    new PodmanCheckpointer(new Podman(script("good", export), criu, Duration.ofSeconds(30)), work, storer)
        .checkpointAndStore("web", false);
    assertThat(stored).containsExactly("exported\n");
    assertThat(work).as("the export is removed once stored").isEmptyDirectory();

    Path failing = script("failing", export + "; echo 'Error: no container with name or ID \"web\" found' >&2; exit 125");
    assertThatThrownBy(() -> new PodmanCheckpointer(new Podman(failing, criu, Duration.ofSeconds(30)), work, storer)
        .checkpointAndStore("web", false)).isInstanceOf(PodmanCheckpointer.CheckpointFailed.class)
        .hasMessage("podman's checkpoint of web failed, nothing stored: podman exited 125: Error: no container with name or ID "
            + "\"web\" found");
    Path empty = script("empty", "exit 0");
    assertThatThrownBy(() -> new PodmanCheckpointer(new Podman(empty, criu, Duration.ofSeconds(30)), work, storer)
        .checkpointAndStore("web", false)).hasMessageContaining("exported nothing");
    long start = System.nanoTime();
    Path slow = script("slow", export + "; exec sleep 60");
    assertThatThrownBy(() -> new PodmanCheckpointer(new Podman(slow, criu, Duration.ofSeconds(1)), work, storer)
        .checkpointAndStore("web", false)).hasMessageContaining("podman did not finish within 1 s and was ended");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("ended, not awaited").isLessThan(Duration.ofSeconds(30));
    assertThat(stored).as("failures store nothing").hasSize(1);
    assertThat(work).as("and leave no export behind").isEmptyDirectory();
  }

  @Test
  void aFailureQuotesPodmansLastLines_readFromTheEndOfHowEverMuchItPrinted() throws IOException {
    Path err = dir.resolve("err");
    Files.writeString(err, "x".repeat(Podman.TAIL * 3) + "\nfirst\n\nError: a\n  Error: b  \nError: c\n\n");
    assertThat(Podman.lastLines(Podman.tail(err))).isEqualTo("Error: a; Error: b; Error: c");
    assertThat(Podman.tail(Files.writeString(dir.resolve("short"), "id\n"))).isEqualTo("id\n");
    assertThat(Podman.tail(Files.write(dir.resolve("none"), new byte[0]))).isEmpty();
  }

  @Test
  void onlyATarHoldingCriusInventoryAsAFileIsTakenForAnExport() throws IOException {
    assertThat(PodmanRestore.isExport(tar("a.tar", "checkpoint/inventory.img", TarConstants.LF_NORMAL))).isTrue();
    assertThat(PodmanRestore.isExport(tar("b.tar", "./checkpoint/inventory.img", TarConstants.LF_NORMAL))).isTrue();
    assertThat(PodmanRestore.isExport(tar("c.tar", "checkpoint/inventory.img", TarConstants.LF_SYMLINK))).isFalse();
    assertThat(PodmanRestore.isExport(tar("d.tar", "other/inventory.img", TarConstants.LF_NORMAL))).isFalse();
    assertThat(PodmanRestore.isExport(Files.writeString(dir.resolve("junk"), "not a tar at all"))).isFalse();
    assertThat(PodmanRestore.isExport(Files.write(dir.resolve("empty"), new byte[0]))).isFalse();
  }

  private Path tar(String file, String member, byte type) throws IOException {
    Path p = dir.resolve(file);
    try (TarArchiveOutputStream t = new TarArchiveOutputStream(Files.newOutputStream(p))) {
      TarArchiveEntry e = new TarArchiveEntry(member, type);
      if (type == TarConstants.LF_SYMLINK) {
        e.setLinkName("/etc/passwd");
      } else {
        e.setSize(3);
      }
      t.putArchiveEntry(e);
      if (type != TarConstants.LF_SYMLINK) {
        t.write(new byte[] {1, 2, 3});
      }
      t.closeArchiveEntry();
    }
    return p;
  }

  private Path script(String name, String body) throws IOException {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    return p;
  }
}
