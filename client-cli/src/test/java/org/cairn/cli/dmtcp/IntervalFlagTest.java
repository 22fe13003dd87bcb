package org.cairn.cli.dmtcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.cairn.cli.CairnCli;
import org.cairn.cli.context.Session;
import org.cairn.client.advise.Advice;
import org.cairn.client.advise.CheckpointCosts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class IntervalFlagTest {
  /** The job options {@code args} parse to (nothing runs). */
  private static DmtcpCommand.JobOptions parsed(String... args) {
    CommandLine cli = CairnCli.commandLine(Session.local(), args);
    CommandLine.ParseResult r = cli.parseArgs(args);
    while (r.hasSubcommand()) {
      r = r.subcommand();
    }
    Object command = r.commandSpec().userObject();
    return command instanceof DmtcpCommand.Launch l ? l.job : ((DmtcpCommand.Restart) command).job;
  }

  @Test
  void autoIsAcceptedWhereverADurationIs() {
    for (String sub : new String[] {"launch", "restart"}) {
      List<String> args = new ArrayList<>(List.of("dmtcp", sub, "--app", "heat", "--node", "n0", "--interval", "auto"));
      if (sub.equals("launch")) {
        args.addAll(List.of("--", "a.out"));
      }
      DmtcpCommand.JobOptions o = parsed(args.toArray(String[]::new));
      assertThat(o.auto()).as(sub).isTrue();
      assertThat(o.intervalSeconds(null)).as("DMTCP's own timer is off under " + sub).isZero();
    }
    assertThat(parsed("dmtcp", "launch", "--app", "a", "--node", "n", "--interval", "AUTO", "--", "x").auto()).isTrue();
  }

  @Test
  void aDurationStillMeansDmtcpsOwnTimer() {
    DmtcpCommand.JobOptions o = parsed("dmtcp", "launch", "--app", "a", "--node", "n", "--interval", "90s", "--", "x");
    assertThat(o.auto()).isFalse();
    assertThat(o.intervalSeconds(null)).isEqualTo(90);
    assertThat(parsed("dmtcp", "launch", "--app", "a", "--node", "n", "--", "x").intervalSeconds(null)).isEqualTo(600);
  }

  @Test
  void aWordThatIsNeitherIsRefusedNamingTheFlag() {
    String[] args = {"dmtcp", "launch", "--app", "a", "--node", "n", "--interval", "often", "--", "x"};
    CommandLine cli = CairnCli.commandLine(Session.local(), args);
    StringWriter err = new StringWriter();
    cli.setErr(new PrintWriter(err, true));
    assertThat(cli.execute(args)).isEqualTo(2);
    assertThat(err.toString()).contains("--interval").contains("often");
  }

  @Test
  void autoCheckpointsOnTheAdvisedIntervalAndFollowsItAsItChanges(@TempDir Path dir) throws Exception {
    // the advice is 1 s until the first checkpoint, then 2 s
    BlockingQueue<Long> taken = new LinkedBlockingQueue<>();
    long[] advised = {1};
    CheckpointCosts costs = new CheckpointCosts(dir);
    StringWriter err = new StringWriter();
    long t0 = System.nanoTime();
    try (AutoInterval auto = new AutoInterval(() -> advice(advised[0]), () -> {
      taken.add(System.nanoTime());
      advised[0] = 2; // the estimates changed after this checkpoint
      return Duration.ofMillis(250);
    }, costs, "heat", "n0", new PrintWriter(err, true)).start()) {
      Long first = taken.poll(10, TimeUnit.SECONDS);
      Long second = taken.poll(10, TimeUnit.SECONDS);
      assertThat(first).as("a first checkpoint after the advised 1 s").isNotNull();
      assertThat(second).isNotNull();
      assertThat((first - t0) / 1e9).isBetween(0.9, 5.0);
      assertThat((second - first) / 1e9).as("the next one on the new advice, 2 s").isBetween(1.9, 6.0);
    }
    assertThat(costs.recent("heat", "n0")).isNotEmpty().allSatisfy(s -> {
      assertThat(s.pauseMillis()).isEqualTo(250);
      assertThat(s.source()).isEqualTo("dmtcp");
    });
    assertThat(err.toString()).contains("checkpointing every 1 s").contains("checkpointing every 2 s");
  }

  @Test
  void withoutAdviceTheJobStillCheckpointsOnTheFallback(@TempDir Path dir) throws Exception {
    StringWriter err = new StringWriter();
    try (AutoInterval auto = new AutoInterval(() -> {
      throw new java.io.IOException("tracker unreachable");
    }, () -> Duration.ZERO, new CheckpointCosts(dir), "heat", "n0", new PrintWriter(err, true)).start()) {
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (!err.toString().contains("no advice") && System.nanoTime() < deadline) {
        Thread.sleep(20); // polling the thread's first line
      }
    }
    assertThat(err.toString()).contains("no advice (tracker unreachable); checkpointing every 600 s");
  }

  @Test
  void aJobWithAutoNeedsNoDurationToParse() {
    assertThatThrownBy(() -> parsed("dmtcp", "launch", "--app", "a", "--node", "n", "--interval")).isInstanceOf(
        CommandLine.MissingParameterException.class);
  }

  private static Advice advice(long seconds) {
    return new Advice("heat", "n0", "h", seconds, "daly", seconds, seconds, 100, null, null, 0, 0, 3600, "low", "history", 0.25, 1,
        0.25, 0.25, "low", "dmtcp", "low", 0);
  }
}
