package org.cairn.sim.durability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.cairn.sim.churn.ChurnParameters;
import org.junit.jupiter.api.Test;

/** One small month end to end: 200 donors, 5 jobs storing twice a day (300 versions), every day's invariants checked. */
class MonthRunTest {
  private static DurabilitySettings settings(long seed) {
    return new DurabilitySettings(200, 30, 2, 5, 720, 100, 3, 20, 10, 9.5, 10, 60, 15, 2, 24, List.of("code:4+2", "replicate:2"),
        List.of("falcon", "capped", "random"), seed);
  }

  /** The shipped churn, made harsh (an outage a lab every other day, donors leaving in 20 days) so things happen. */
  private static final ChurnParameters HARSH = new ChurnParameters(1.313, 0.2172, 1.0298, 2.3931, 20, 8, 18, 0.1, 15, 0.5, 120);
  private static final LongTermParameters SHORT_LIVED = new LongTermParameters(20, 1, 0.03, 2);

  private static RunResult run(DurabilitySettings s, String scheme, String placement, List<String> violations) {
    WorldEvents w = WorldEvents.draw(HARSH, SHORT_LIVED, s.donors(), s.horizon(), s.seed());
    SlotHistory h = new SlotHistory(w, s.slotMinutes() * DurabilitySettings.MINUTE, s.windowDays() * DurabilitySettings.DAY, 86_400_000L);
    return new MonthRun(s, w, h, scheme, placement).onEachDay((grid, kept) -> check(grid, kept, violations)).run();
  }

  private static void check(Grid grid, Iterable<Version> kept, List<String> violations) {
    long used = 0;
    for (int d = 0; d < grid.donors.count(); d++) {
      used += grid.settings.quotaBytes() - grid.free(d);
    }
    if (used != grid.load().heldBytes()) {
      violations.add("the grid's load " + grid.load().heldBytes() + " is not the donors' used bytes " + used);
    }
    for (Version v : kept) {
      int present = 0;
      int live = 0;
      for (int i = 0; i < v.n(); i++) {
        present += v.present(i, grid.donors) ? 1 : 0;
        live += v.live(i, grid.donors) ? 1 : 0;
      }
      if (live != v.live || live > v.n()) {
        violations.add("version " + v.id + ": live " + v.live + ", counted " + live + " of " + v.n());
      }
      if ((present < v.m) != v.lost && !v.lost) {
        violations.add("version " + v.id + ": " + present + " pieces left but not marked lost");
      }
      if (v.lost && present >= v.m) {
        violations.add("version " + v.id + ": marked lost with " + present + " pieces left");
      }
      if (v.unreadable != (v.minLive < v.m)) {
        violations.add("version " + v.id + ": unreadable " + v.unreadable + " but fewest live " + v.minLive);
      }
      if (v.lost && !v.unreadable) {
        violations.add("version " + v.id + ": lost but never unreadable");
      }
      if (Arrays.stream(v.holder).distinct().count() != v.n()) {
        violations.add("version " + v.id + ": two pieces on one donor " + Arrays.toString(v.holder));
      }
    }
  }

  @Test
  void aHarshMonthKeepsTheBookkeepingTrue_everyDay_forEverySchemeAndPlacement() {
    DurabilitySettings s = settings(7);
    for (String scheme : s.schemes()) {
      for (String placement : s.placements()) {
        List<String> violations = new ArrayList<>();
        RunResult r = run(s, scheme, placement, violations);
        assertThat(violations).as(scheme + " " + placement).isEmpty();
        assertThat(r.versionsStored() + r.storesFailed()).isEqualTo(5 * 2 * 30);
        assertThat(r.minLive()).isBetween(0, r.n());
        assertThat(r.repairsDone()).as("the harsh month needs repairs").isPositive();
        assertThat(r.unreadable()).isGreaterThanOrEqualTo(r.lost());
        assertThat(r.repairMbPerDonorDayP99()).isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(r.repairMbPerDonorDayMax());
      }
    }
  }

  @Test
  void theCappedRunSpreadsThePiecesOverMoreDonorsThanUncappedFalcon_andNoneHoldsAsMuch() {
    DurabilitySettings s = settings(7);
    RunResult uncapped = run(s, "code:4+2", "falcon", new ArrayList<>());
    RunResult capped = run(s, "code:4+2", "capped", new ArrayList<>());
    RunResult tighter = run(s, "code:4+2", "capped:2", new ArrayList<>());
    assertThat(capped.holders()).as("donors holding a piece, on average (8x the mean)").isGreaterThan(uncapped.holders());
    assertThat(tighter.holders()).as("the same, 2x the mean").isGreaterThan(1.5 * uncapped.holders());
    assertThat(capped.mostHeldGb()).isLessThan(uncapped.mostHeldGb());
    assertThat(tighter.mostHeldGb()).isLessThan(capped.mostHeldGb());
  }

  @Test
  void theSameSeedGivesTheSameMonth_andAnotherSeedAnother() {
    RunResult a = run(settings(11), "code:4+2", "random", new ArrayList<>());
    RunResult b = run(settings(11), "code:4+2", "random", new ArrayList<>());
    RunResult c = run(settings(12), "code:4+2", "random", new ArrayList<>());
    assertThat(figures(a)).isEqualTo(figures(b));
    assertThat(figures(a)).isNotEqualTo(figures(c));
  }

  private static String figures(RunResult r) {
    return List.of(r.versionsStored(), r.unreadable(), r.lost(), r.minLive(), r.repairsDone(), r.repairsFailed(), r.piecesRebuilt(),
        r.repairMbPerDonorDayMean(), r.repairMbPerDonorDayP99(), r.events()) + Arrays.toString(r.minSurplusByDay())
        + Arrays.toString(r.repairMbMeanByDay());
  }
}
