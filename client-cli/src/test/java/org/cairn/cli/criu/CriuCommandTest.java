package org.cairn.cli.criu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.cairn.cli.CairnCli;
import org.cairn.cli.context.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CriuCommandTest {
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
  void launchTakesTheProgramAndItsOwnFlagsAfterTheDoubleDash() {
    CriuCommand.Launch l = parsed("criu", "launch", "--app", "sim", "--node", "n0", "--interval", "5s", "--", "python3", "c.py",
        "--interval", "9").getCommand();
    assertThat(l.program).containsExactly("python3", "c.py", "--interval", "9");
    assertThat(CriuCommand.interval(null, l.interval)).isEqualTo(Duration.ofSeconds(5));
    assertThat(l.dump.target.app).isEqualTo("sim");
    assertThat(CriuLauncher.detached(l.program)).containsExactly("setsid", "python3", "c.py", "--interval", "9");
  }

  @Test
  void anIntervalUnderASecondOrUnparseableIsAUsageError() {
    CommandLine cl = parsed("criu", "launch", "--app", "a", "--node", "n", "--", "x");
    assertThatThrownBy(() -> CriuCommand.interval(cl, "500ms")).isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("--interval: must be at least 1s");
    assertThatThrownBy(() -> CriuCommand.interval(cl, "soon")).isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageStartingWith("--interval: ");
  }

  @Test
  void launchWithoutAProgramAndDumpWithoutANumericPidAreRefused() {
    assertThatThrownBy(() -> parsed("criu", "launch", "--app", "a", "--node", "n")).isInstanceOf(CommandLine.ParameterException.class);
    assertThatThrownBy(() -> parsed("criu", "dump", "--app", "a", "--node", "n", "12ab"))
        .isInstanceOf(CommandLine.ParameterException.class);
    assertThatThrownBy(() -> parsed("criu", "dump", "--app", "a", "--node", "n")).isInstanceOf(CommandLine.ParameterException.class);
  }

  @Test
  void dumpLeavesTheTreeRunningUnlessStopAndRestoreTakesAStep() {
    CriuCommand.Dump d = parsed("criu", "dump", "--app", "a", "--node", "n", "4242").getCommand();
    assertThat(d.pid).isEqualTo(4242);
    assertThat(d.stop).isFalse();
    assertThat(((CriuCommand.Dump) parsed("criu", "dump", "--app", "a", "--node", "n", "--stop", "--shell-job", "7").getCommand()).stop)
        .isTrue();
    CriuRestore r = parsed("criu", "restore", "--app", "a", "--node", "n", "--step", "3", "--json").getCommand();
    assertThat(r.stepOption.step).isEqualTo(3);
    assertThat(r.json).isTrue();
    CriuRestore latest = parsed("criu", "restore", "--app", "a", "--node", "n").getCommand();
    assertThat(latest.stepOption.step).as("the latest").isZero();
  }

  @Test
  void aDumpTakesThirtyMinutesUnlessTimeoutSaysOtherwise_andLessThanASecondIsAUsageError() {
    CommandLine dump = parsed("criu", "dump", "--app", "a", "--node", "n", "7");
    assertThat(((CriuCommand.Dump) dump.getCommand()).dump.timeout(dump)).isEqualTo(Duration.ofMinutes(30));
    CommandLine quick = parsed("criu", "launch", "--app", "a", "--node", "n", "--timeout", "90s", "--", "x");
    assertThat(((CriuCommand.Launch) quick.getCommand()).dump.timeout(quick)).isEqualTo(Duration.ofSeconds(90));
    for (String bad : List.of("0s", "500ms", "-1m", "later")) {
      CommandLine cl = parsed("criu", "dump", "--app", "a", "--node", "n", "--timeout", bad, "7");
      assertThatThrownBy(() -> ((CriuCommand.Dump) cl.getCommand()).dump.timeout(cl)).as(bad)
          .isInstanceOf(CommandLine.ParameterException.class).hasMessageStartingWith("--timeout: ");
    }
  }

  @Test
  void aDumpThatOutlastsItsTimeoutIsEndedAndFailed() throws Exception {
    Path slow = Files.writeString(dir.resolve("slow-criu"), "#!/bin/sh\nexec sleep 60\n");
    Files.setPosixFilePermissions(slow, PosixFilePermissions.fromString("rwx------"));
    long start = System.nanoTime();
    CriuVerdict v = new Criu(slow, false, Duration.ofSeconds(1)).dump(1, dir, dir.resolve("criu.log"), true);
    assertThat(v.ok()).isFalse();
    assertThat(v.reason()).contains("CRIU did not finish within 1 s");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("ended, not awaited").isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void theBinaryIsCairnCriuWhenSetElseCriuOnPath() throws IOException {
    Path named = executable(dir.resolve("my-criu"));
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path onPath = executable(bin.resolve("criu"));
    assertThat(Criu.find(Map.of("CAIRN_CRIU", named.toString(), "PATH", bin.toString()))).isEqualTo(named);
    assertThat(Criu.find(Map.of("PATH", "/nonexistent:" + bin))).isEqualTo(onPath);
    assertThat(Criu.find(Map.of("CAIRN_CRIU", "", "PATH", bin.toString()))).as("set but empty: unset").isEqualTo(onPath);
  }

  @Test
  void aCairnCriuThatIsNoExecutableFileOrNoCriuAnywhereIsAClearError() throws IOException {
    Path plain = Files.writeString(dir.resolve("plain"), "not a program");
    for (String bad : List.of(plain.toString(), dir.toString(), dir.resolve("missing").toString())) {
      assertThatThrownBy(() -> Criu.find(Map.of("CAIRN_CRIU", bad))).isInstanceOf(IOException.class)
          .hasMessage("CAIRN_CRIU=" + bad + " is not an executable file");
    }
    assertThatThrownBy(() -> Criu.find(Map.of("PATH", dir.toString()))).isInstanceOf(IOException.class)
        .hasMessageStartingWith("criu is not on PATH and CAIRN_CRIU is not set: build CRIU with third_party/criu/build.sh");
  }

  @Test
  void thePidCriuWroteIsReadOnlyWhenItIsOne() throws IOException {
    assertThat(Criu.pid(Files.writeString(dir.resolve("ok"), "1234\n"))).hasValue(1234);
    assertThat(Criu.pid(Files.writeString(dir.resolve("junk"), "12x"))).isEmpty();
    assertThat(Criu.pid(Files.writeString(dir.resolve("zero"), "0"))).isEmpty();
    assertThat(Criu.pid(dir.resolve("none"))).isEmpty();
  }

  private static Path executable(Path p) throws IOException {
    Files.writeString(p, "#!/bin/sh\nexit 0\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    return p;
  }
}
