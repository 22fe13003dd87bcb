package org.cairn.cli.criu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.cairn.cli.CairnCli;
import org.cairn.cli.context.Session;
import org.cairn.client.store.StoreOutcome;
import org.cairn.core.api.catalog.CommitRequest;
import org.cairn.core.manifest.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code criu launch|dump --part R --parts P [--set EPOCH]} and {@code restore --part R}: flags, set names, rounds. */
class CriuSetTest {
  @TempDir
  Path dir;

  private static CommandLine parsed(String... args) {
    CommandLine cli = CairnCli.commandLine(Session.local(), args);
    CommandLine.ParseResult r = cli.parseArgs(args);
    while (r.hasSubcommand()) {
      r = r.subcommand();
    }
    return r.commandSpec().commandLine();
  }

  private static SetFlags.HostPart dumpPart(String... flags) {
    List<String> args = new ArrayList<>(List.of("criu", "dump", "--app", "a", "--node", "n"));
    args.addAll(List.of(flags));
    args.add("7");
    CommandLine cl = parsed(args.toArray(String[]::new));
    return ((CriuCommand.Dump) cl.getCommand()).dump.sets.hostPart(cl, false);
  }

  private static SetFlags.HostPart launchPart(String... flags) {
    List<String> args = new ArrayList<>(List.of("criu", "launch", "--app", "a", "--node", "n"));
    args.addAll(List.of(flags));
    args.addAll(List.of("--", "x"));
    CommandLine cl = parsed(args.toArray(String[]::new));
    return ((CriuCommand.Launch) cl.getCommand()).dump.sets.hostPart(cl, true);
  }

  @Test
  void withoutSetFlagsEachDumpIsAVersionOfItsOwn_andTheWorkDirIsTheNodes() {
    assertThat(dumpPart()).isNull();
    assertThat(launchPart()).isNull();
    CriuCommand.Launch l = parsed("criu", "launch", "--app", "a", "--node", "n", "--", "x").getCommand();
    assertThat(l.dump.workDir(l.parent.root).toString()).endsWith("/criu/a/n");
    assertThat(CriuCommand.Dump.set(null, Clock.systemUTC())).isNull();
  }

  @Test
  void partAndPartsMakeThisHostsPart_andTheDefaultWorkDirIsThePartsOwn() {
    assertThat(dumpPart("--part", "1", "--parts", "3")).isEqualTo(new SetFlags.HostPart(null, 1, 3));
    assertThat(launchPart("--part", "0", "--parts", "1", "--set", "job-7")).isEqualTo(new SetFlags.HostPart("job-7", 0, 1));
    CriuCommand.Launch l = parsed("criu", "launch", "--app", "a", "--node", "n", "--part", "1", "--parts", "2", "--", "x").getCommand();
    assertThat(l.dump.workDir(l.parent.root).toString()).as("two hosts sharing a home write apart").endsWith("/criu/a/n/part-1");
  }

  @Test
  void aPartWithoutPartsOrPartsWithoutAPartOrASetAloneIsAUsageError() {
    assertUsage(() -> dumpPart("--part", "0"), "--part needs both --part R and --parts P");
    assertUsage(() -> launchPart("--parts", "2"), "--parts needs both --part R and --parts P");
    assertUsage(() -> dumpPart("--set", "e1"), "--set needs both --part R and --parts P");
  }

  @Test
  void aPartOutsideZeroToPartsLessOneOrAPartCountOutsideOneTo4096IsAUsageError() {
    assertUsage(() -> dumpPart("--part", "2", "--parts", "2"), "--part/--parts: part 2 is outside 0..1");
    assertUsage(() -> launchPart("--part", "-1", "--parts", "2"), "--part/--parts: part -1 is outside 0..1");
    assertUsage(() -> dumpPart("--part", "0", "--parts", "0"), "--part/--parts: a set has 1..4096 parts, not 0");
    assertUsage(() -> dumpPart("--part", "0", "--parts", "-3"), "--part/--parts: a set has 1..4096 parts, not -3");
    assertUsage(() -> dumpPart("--part", "0", "--parts", "4097"), "--part/--parts: a set has 1..4096 parts, not 4097");
    assertUsage(() -> dumpPart("--part", "2147483647", "--parts", "4096"), "part 2147483647 is outside 0..4095");
  }

  @Test
  void aPartOrPartCountPastAnIntIsRefusedWhenParsed() {
    for (String[] flags : List.of(new String[] {"--part", "2147483648", "--parts", "2"}, new String[] {"--part", "0", "--parts",
        "2147483648"}, new String[] {"--part", "1e3", "--parts", "2"})) {
      assertThatThrownBy(() -> dumpPart(flags)).as(String.join(" ", flags)).isInstanceOf(CommandLine.ParameterException.class)
          .hasMessageContaining("Invalid value for option");
    }
    assertThatThrownBy(() -> parsed("criu", "restore", "--app", "a", "--node", "n", "--part", "2147483648"))
        .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("Invalid value for option '--part'");
  }

  @Test
  void aSetNameKeysCannotHoldOrALaunchPrefixLeavingNoRoomForTheRoundIsAUsageError() {
    for (String bad : List.of("a/b", "a b", "", "ü", "x".repeat(129), "a\u0000b")) {
      assertUsage(() -> dumpPart("--part", "0", "--parts", "2", "--set", bad), "--set must be 1-128 letters");
    }
    assertThat(dumpPart("--part", "0", "--parts", "2", "--set", "x".repeat(128)).given()).hasSize(128);
    assertUsage(() -> launchPart("--part", "0", "--parts", "2", "--set", "x".repeat(101)), "at most 100 characters, was 101");
    SetFlags.HostPart longest = launchPart("--part", "0", "--parts", "2", "--set", "x".repeat(100));
    assertThat(longest.ofRound(SetRounds.onDemand(Instant.parse("2026-12-02T20:31:00Z"), "term")).name())
        .as("the longest prefix and the longest round name still make a set name the tracker keys").hasSizeLessThanOrEqualTo(128);
  }

  @Test
  void restoreTakesAPart_andANegativeOneIsAUsageErrorBeforeAnythingRuns() {
    CriuRestore r = parsed("criu", "restore", "--app", "a", "--node", "n", "--part", "1").getCommand();
    assertThat(r.part).isEqualTo(1);
    assertThat(((CriuRestore) parsed("criu", "restore", "--app", "a", "--node", "n").getCommand()).part).isNull();
    CriuRestore negative = parsed("criu", "restore", "--app", "a", "--node", "n", "--part", "-1").getCommand();
    assertUsage(negative::call, "--part must be >= 0, was -1");
  }

  @Test
  void periodicRoundsAreTheWallClockMultiplesOfTheInterval_namedByTheirScheduledInstant() {
    Instant now = Instant.parse("2026-12-02T20:30:01.500Z");
    assertThat(SetRounds.nextRound(now, Duration.ofSeconds(10))).isEqualTo(Instant.parse("2026-12-02T20:30:10Z"));
    assertThat(SetRounds.nextRound(Instant.parse("2026-12-02T20:30:10Z"), Duration.ofSeconds(10))).as("strictly after")
        .isEqualTo(Instant.parse("2026-12-02T20:30:20Z"));
    assertThat(SetRounds.nextRound(now, Duration.ofMinutes(10))).isEqualTo(Instant.parse("2026-12-02T20:40:00Z"));
    // two hosts whose clocks are 400 ms apart, asked within the same round, schedule the same instant
    assertThat(SetRounds.nextRound(now.plusMillis(400), Duration.ofSeconds(10))).isEqualTo(SetRounds.nextRound(now, Duration.ofSeconds(10)));
    assertThat(SetRounds.periodic(Instant.parse("2026-12-02T20:30:10Z"))).isEqualTo("20261202T203010Z");
    assertThatThrownBy(() -> SetRounds.nextRound(now, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aDumpOnDemandIsNamedByTheNearestMinuteAndWhatAskedForIt() {
    assertThat(SetRounds.onDemand(Instant.parse("2026-12-02T20:31:29.999Z"), "usr1")).isEqualTo("20261202T2031Z-usr1");
    assertThat(SetRounds.onDemand(Instant.parse("2026-12-02T20:30:30Z"), "term")).isEqualTo("20261202T2031Z-term");
    assertThat(SetRounds.onDemand(Instant.parse("2026-12-02T23:59:45Z"), "dump")).isEqualTo("20261203T0000Z-dump");
    Clock at = Clock.fixed(Instant.parse("2026-12-02T20:31:10Z"), ZoneOffset.UTC);
    assertThat(CriuCommand.Dump.set(new SetFlags.HostPart(null, 1, 2), at)).isEqualTo(new Manifest.SetPart("20261202T2031Z-dump", 1, 2));
    assertThat(CriuCommand.Dump.set(new SetFlags.HostPart("e7", 0, 2), at)).as("--set given: the set itself")
        .isEqualTo(new Manifest.SetPart("e7", 0, 2));
    assertThat(new SetFlags.HostPart("job", 0, 2).ofRound("20261202T203010Z").name()).isEqualTo("job.20261202T203010Z");
  }

  @Test
  void aLaunchAsAPartDumpsOnTheIntervalsWallClockMultiples_eachRoundItsOwnSet() throws Exception {
    // a stand-in for CRIU that reports every dump done, so the launcher's rounds are seen without root
    Path criu = Files.writeString(dir.resolve("criu"), "#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = -o ] && "
        + "echo 'Dumping finished successfully' > \"$2\"; shift; done; exit 0\n");
    Files.setPosixFilePermissions(criu, PosixFilePermissions.fromString("rwx------"));
    List<Manifest.SetPart> sets = Collections.synchronizedList(new ArrayList<>());
    List<Long> at = Collections.synchronizedList(new ArrayList<>());
    CriuDumper.Storer storer = (images, set) -> {
      at.add(System.currentTimeMillis());
      sets.add(set);
      return new StoreOutcome("a", "n", 0, 1, 1, 1, 1, 0, List.of(), List.of(), List.of(), new CommitRequest.Answer("a", "n", 0,
          set.name(), set.parts(), 1), 1, 1, -1);
    };
    CriuDumper dumper = new CriuDumper(new Criu(criu, false, Duration.ofSeconds(10)), dir.resolve("work"), storer);
    StringWriter err = new StringWriter();
    CriuLauncher launcher = new CriuLauncher(dumper, new PrintWriter(err), new SetFlags.HostPart("job", 1, 2), Clock.systemUTC());
    int status = launcher.run(List.of("sleep", "3.5"), dir.resolve("out.log"), Duration.ofSeconds(1));

    assertThat(status).isZero();
    assertThat(sets).as(err.toString()).hasSizeBetween(2, 4);
    for (int i = 0; i < sets.size(); i++) {
      Manifest.SetPart s = sets.get(i);
      assertThat(s.part()).isEqualTo(1);
      assertThat(s.parts()).isEqualTo(2);
      assertThat(s.name()).matches("job\\.\\d{8}T\\d{6}Z");
      Instant round = java.time.format.DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC)
          .parse(s.name().substring(4), Instant::from);
      assertThat(at.get(i) - round.toEpochMilli()).as("dumped at its round's instant, named by it").isBetween(0L, 900L);
    }
    assertThat(sets.stream().map(Manifest.SetPart::name).distinct()).as("a set per round").hasSameSizeAs(sets);
    assertThat(err.toString()).contains("stored it").contains("as part 1 of set job.").contains("(1 of 2 parts committed)");
  }

  @Test
  void aStoredPartSaysHowFarItsSetIsOrTheVersionItCompleted() {
    Manifest.SetPart set = new Manifest.SetPart("20261202T203010Z", 1, 3);
    assertThat(CriuLauncher.stored(outcome(0, new CommitRequest.Answer("a", "n", 0, set.name(), 3, 2)), set))
        .isEqualTo("part 1 of set 20261202T203010Z (2 of 3 parts committed)");
    assertThat(CriuLauncher.stored(outcome(7, new CommitRequest.Answer("a", "n", 7, set.name(), 3, 3)), set))
        .isEqualTo("part 1 of set 20261202T203010Z, complete: a.n.7");
    assertThat(CriuLauncher.stored(outcome(0, new CommitRequest.Answer("a", "n", 0)), set)).as("an answer without the count")
        .isEqualTo("part 1 of set 20261202T203010Z (? of 3 parts committed)");
    assertThat(CriuLauncher.stored(outcome(4, null), null)).isEqualTo("a.n.4");
  }

  private static StoreOutcome outcome(long step, CommitRequest.Answer answer) {
    return new StoreOutcome("a", "n", step, 1, 1, 1, 1, 0, List.of(), List.of(), List.of(), answer, 1, 1, -1);
  }

  private static void assertUsage(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String message) {
    assertThatThrownBy(call).isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining(message);
  }
}
