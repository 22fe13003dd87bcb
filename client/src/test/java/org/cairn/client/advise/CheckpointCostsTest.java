package org.cairn.client.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointCostsTest {
  @TempDir
  Path dir;

  @Test
  void theNewestTwentyPausesAreKeptAcrossInstances() throws Exception {
    CheckpointCosts costs = new CheckpointCosts(dir);
    for (int i = 1; i <= 25; i++) {
      costs.record("heat", "n0", Duration.ofMillis(i * 100), "store");
    }
    List<CheckpointCosts.Sample> kept = new CheckpointCosts(dir).recent("heat", "n0");
    assertThat(kept).hasSize(CheckpointCosts.KEEP);
    assertThat(kept.get(0).pauseMillis()).isEqualTo(600);
    assertThat(kept.get(19).pauseMillis()).isEqualTo(2500);
    assertThat(new CheckpointCosts(dir).recent("heat", "n1")).isEmpty();
    try (var files = Files.list(dir.resolve("heat"))) {
      assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactly("n0.jsonl");
    }
  }

  @Test
  void aLineThatIsNotASampleIsSkipped() throws Exception {
    CheckpointCosts costs = new CheckpointCosts(dir);
    costs.record("heat", "n0", Duration.ofSeconds(2), "async");
    Files.writeString(dir.resolve("heat/n0.jsonl"), "{torn\n{\"at\":1,\"pauseMillis\":-5,\"source\":\"x\"}\n",
        java.nio.file.StandardOpenOption.APPEND);
    assertThat(costs.recent("heat", "n0")).extracting(CheckpointCosts.Sample::pauseMillis).containsExactly(2000L);
  }

  @Test
  void namesThatWouldLeaveTheDirectoryAreRefused() {
    CheckpointCosts costs = new CheckpointCosts(dir);
    for (String bad : new String[] {"..", "../x", "a/b", ".hidden", ""}) {
      assertThatThrownBy(() -> costs.record(bad, "n0", Duration.ZERO, "store")).as(bad).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> costs.recent("heat", bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> costs.record("heat", "n0", Duration.ofMillis(-1), "store")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theCostIsTheMedianOfTheNewestTen() {
    List<CheckpointCosts.Sample> samples = new ArrayList<>();
    samples.add(new CheckpointCosts.Sample(0, 900_000, "store")); // older than the newest ten: left out
    for (long ms : new long[] {1000, 3000, 2000, 60_000, 4000, 5000, 6000, 7000, 8000, 9000}) {
      samples.add(new CheckpointCosts.Sample(0, ms, "async"));
    }
    CheckpointCost c = CheckpointCost.of(samples, 10);
    // sorted: 1 2 3 4 5 6 7 8 9 60 -> median (5 + 6) / 2
    assertThat(c.seconds()).isEqualTo(5.5);
    assertThat(c.samples()).isEqualTo(10);
    assertThat(c.minSeconds()).isEqualTo(1.0);
    assertThat(c.maxSeconds()).isEqualTo(60.0);
    assertThat(c.confidence()).isEqualTo("high");
    assertThat(c.source()).isEqualTo("async");
    assertThat(CheckpointCost.of(samples.subList(1, 4), 10).seconds()).isEqualTo(2.0);
    assertThat(CheckpointCost.of(samples.subList(1, 4), 10).confidence()).isEqualTo("medium");
  }

  @Test
  void noSampleGivesTheFallbackWithNoConfidence() {
    CheckpointCost c = CheckpointCost.of(List.of(), 10);
    assertThat(c.seconds()).isEqualTo(10.0);
    assertThat(c.confidence()).isEqualTo("none");
  }

  @Test
  void theWholeAdviceIsAsConfidentAsItsWeakerEstimate() {
    assertThat(Advisor.lower("high", "low")).isEqualTo("low");
    assertThat(Advisor.lower("none", "given")).isEqualTo("none");
    assertThat(Advisor.lower("given", "medium")).isEqualTo("medium");
  }
}
