package org.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Random;
import org.cairn.core.availability.StateSeries;
import org.cairn.tracker.history.History;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cairn advise} through the real command line against a real tracker (one-second history slots) whose history
 * of a compute host is seeded: runs of 20-200 s up and 5-30 s down from a fixed seed, so the answer is known.
 */
class AdviseCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir
  static Path dir;
  private static InProcessGrid grid;
  /** A fresh app, so no checkpoint of it was noted on this host. */
  private static final String APP = "advise-" + Long.toHexString(System.nanoTime());

  @BeforeAll
  static void start() throws Exception {
    grid = new InProcessGrid(dir.resolve("grid"), 0);
  }

  @AfterAll
  static void stop() {
    grid.close();
  }

  @Test
  void aSeededHistoryGivesItsKnownMeanAndDalysInterval() throws Exception {
    History history = grid.tracker().history();
    long now = history.currentSlot();
    Random random = new Random(66);
    long ups = 0;
    int interruptions = 0;
    long slot = now - 3000;
    while (slot < now - 10) {
      int up = 20 + random.nextInt(181);
      int down = 5 + random.nextInt(26);
      for (int i = 0; i < up + down && slot < now - 10; i++, slot++) {
        history.record(false, "seeded-host", slot, i < up ? StateSeries.UP : StateSeries.COMPUTE_DOWN);
        ups += i < up ? 1 : 0;
        interruptions += i == up ? 1 : 0;
      }
    }
    InProcessGrid.Run r = grid.cairn("advise", "--app", APP, "--node", "n0", "--client", "seeded-host", "--window", "1h",
        "--checkpoint-cost", "30s", "--json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode a = JSON.readTree(r.out());
    double m = (double) ups / interruptions;
    assertThat(interruptions).as("the seed gives a history with interruptions").isGreaterThan(10);
    assertThat(a.path("interruptions").asInt()).isEqualTo(interruptions);
    assertThat(a.path("mtbfSeconds").asDouble()).isCloseTo(m, within(1e-3));
    assertThat(a.path("checkpointSeconds").asDouble()).isEqualTo(30.0);
    // Daly (C = 30 is not small against M): sqrt(2CM) (1 + sqrt(C/2M)/3 + C/18M) - C
    double r2 = 30 / (2 * m);
    double daly = Math.sqrt(60 * m) * (1 + Math.sqrt(r2) / 3 + r2 / 9) - 30;
    assertThat(a.path("formula").asText()).isEqualTo("daly");
    assertThat(a.path("intervalSeconds").asLong()).isEqualTo(Math.round(daly));
    assertThat(a.path("mtbfConfidence").asText()).isEqualTo("high");
    assertThat(a.path("mtbfLowSeconds").asDouble()).isLessThan(m);
    assertThat(a.path("mtbfHighSeconds").asDouble()).isGreaterThan(m);
  }

  @Test
  void withNoHistoryTheDefaultIsGivenWithNoConfidence() throws Exception {
    InProcessGrid.Run r = grid.cairn("advise", "--app", APP, "--node", "fresh", "--client", "never-seen", "--json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode a = JSON.readTree(r.out());
    assertThat(a.path("mtbfSeconds").asDouble()).isEqualTo(14_400.0);
    assertThat(a.path("checkpointSeconds").asDouble()).isEqualTo(10.0);
    assertThat(a.path("intervalSeconds").asLong()).isEqualTo(537); // sqrt(2 * 10 * 14400) = 536.66
    assertThat(a.path("confidence").asText()).isEqualTo("none");
    assertThat(a.path("mtbfSource").asText()).isEqualTo("default");
  }

  @Test
  void withoutJsonItSaysTheIntervalAndBothEstimatesInAFewLines() {
    InProcessGrid.Run r = grid.cairn("advise", "--app", APP, "--node", "fresh", "--client", "never-seen");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out().lines()).hasSize(3);
    assertThat(r.out()).contains("every 8m 57s").contains("mean time to interruption: 4h").contains("checkpoint cost to the job: 10s")
        .contains("confidence none");
  }

  @Test
  void aBadDurationIsAUsageErrorNamingTheFlag() {
    InProcessGrid.Run r = grid.cairn("advise", "--app", APP, "--node", "n0", "--checkpoint-cost", "0s");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--checkpoint-cost");
    InProcessGrid.Run w = grid.cairn("advise", "--app", APP, "--node", "n0", "--window", "forever");
    assertThat(w.exit()).isEqualTo(2);
    assertThat(w.err()).contains("--window");
  }
}
