package org.cairn.gui;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UsageTest {
  @TempDir
  Path dir;

  @Test
  void countersAddUpByDayAcrossAPeerRestartAndTheHistorySurvivesTheApp() throws Exception {
    Path file = dir.resolve("donor-usage.json");
    Usage u = new Usage(file);
    LocalDate d1 = LocalDate.of(2026, 11, 25);
    u.sample(d1, 100, 10, 1000); // the first sample is the baseline
    u.sample(d1, 300, 50, 3000);
    u.sample(d1, 40, 5, 2000);   // the peer started again: its counters restarted from 0
    u.sample(d1.plusDays(1), 140, 25, 2500);
    u.save();
    Usage again = new Usage(file);
    assertThat(again.days()).containsExactly(new Usage.Day("2026-11-26", 100, 20, 2500), new Usage.Day("2026-11-25", 240, 45, 3000));
  }

  @Test
  void onlyTheLastThirtyDaysAreKept() {
    Usage u = new Usage(null);
    LocalDate d = LocalDate.of(2026, 1, 1);
    for (int i = 0; i < 40; i++) {
      u.sample(d.plusDays(i), i, i, i);
    }
    assertThat(u.days()).hasSize(Usage.DAYS);
    assertThat(u.days().get(0).date()).isEqualTo("2026-02-09");
  }
}
