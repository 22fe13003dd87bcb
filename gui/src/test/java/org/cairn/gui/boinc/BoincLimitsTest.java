package org.cairn.gui.boinc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** BOINC's preferences as the donor's limits, checked against what the real BOINC client itself made of the same files. */
class BoincLimitsTest {
  /** The volume the client logged for the test files ("Disk: 251.97 GB total, 73.52 GB free"), BOINC holding nothing. */
  private static final BoincLimits.Disk LOGGED = new BoincLimits.Disk(251_970_000_000L, 73_520_000_000L, 0);

  private static BoincPrefs read(String dir) throws Exception {
    return BoincPrefsReader.read(BoincPrefsReaderTest.resource(dir)).orElseThrow();
  }

  @Test
  void withBoincsDefaultsTheQuotaIsTheClientsOwnMaxDiskUsage() throws Exception {
    // the client logged "max disk usage: 73.42 GB": free space less disk_min_free_gb's 0.1 GB
    assertThat((double) BoincLimits.of(read("client-defaults"), LOGGED).quotaBytes()).isCloseTo(73.42e9, within(0.005e9));
  }

  @Test
  void withTheManagersOverrideTheQuotaIsTheClientsTwentyGigabytes() throws Exception {
    BoincLimits l = BoincLimits.of(read("manager-override"), LOGGED);
    assertThat(l.quotaBytes()).as("the client logged: max disk usage: 20.00 GB").isEqualTo(20_000_000_000L);
    assertThat(l.minFreeBytes()).isEqualTo(5_000_000_000L);
    assertThat(l.upBytesPerSec()).isEqualTo(102_400);
    assertThat(l.downBytesPerSec()).isEqualTo(512_000);
    assertThat(l.dailyCapBytes()).as("3000 MB over 3 days").isEqualTo(1_000_000_000L);
    assertThat(l.hours()).isEqualTo("22:30-06:00, sat 09:00-13:15, sun 00:00-00:00");
    assertThat(l.busyCpu()).isEqualTo(0.5);
    assertThat(l.busyAfter()).as("idle_time_to_run: 5 minutes").isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void eachOfTheThreeDiskLimitsCanBeTheOneThatBinds() {
    BoincPrefs d = BoincPrefs.defaults();
    BoincLimits.Disk disk = new BoincLimits.Disk(100_000_000_000L, 50_000_000_000L, 10_000_000_000L);
    assertThat(BoincLimits.of(with(d, 0, 10, 0), disk).quotaBytes()).as("10 % of the volume").isEqualTo(10_000_000_000L);
    assertThat(BoincLimits.of(with(d, 3, 90, 0), disk).quotaBytes()).as("3 GB").isEqualTo(3_000_000_000L);
    assertThat(BoincLimits.of(with(d, 0, 0, 20), disk).quotaBytes()).as("free plus held less 20 GB, 0 % being no limit")
        .isEqualTo(40_000_000_000L / (1 << 20) * (1 << 20));
    assertThat(BoincLimits.of(with(d, 0, 90, 80), disk).quotaBytes()).as("no space left: the least quota, so the peer is FULL")
        .isEqualTo(BoincLimits.MIN_QUOTA);
  }

  @Test
  void boincsDefaultsGiveAlwaysNoCapsAndItsCpuThresholdWithTheDonorsOwnWait() {
    BoincLimits l = BoincLimits.of(BoincPrefs.defaults(), new BoincLimits.Disk(1L << 40, 1L << 39, 0));
    assertThat(l.hours()).isEmpty();
    assertThat(l.upBytesPerSec()).isZero();
    assertThat(l.downBytesPerSec()).isZero();
    assertThat(l.dailyCapBytes()).isZero();
    assertThat(l.busyCpu()).isEqualTo(0.25);
    assertThat(l.busyAfter()).as("run_if_user_active: BOINC's idle time does not apply").isNull();
  }

  @Test
  void aTransferLimitWithoutItsPeriodIsNoLimitAsInBoinc() {
    BoincPrefs d = BoincPrefs.defaults();
    BoincPrefs limitOnly = new BoincPrefs(d.netHours(), d.dayNetHours(), 0, 90, 0.1, 0, 0, 500, 0, true, 3, 0);
    BoincLimits l = BoincLimits.of(limitOnly, new BoincLimits.Disk(1L << 40, 1L << 39, 0));
    assertThat(l.dailyCapBytes()).isZero();
    assertThat(l.busyCpu()).as("no CPU threshold and work while active: the busy rule off").isEqualTo(1);
  }

  @Test
  void allDayWindowsAndMidnightAsTwentyFourMapToTheDonorsHours() {
    BoincPrefs d = BoincPrefs.defaults();
    BoincPrefs p = new BoincPrefs(new BoincPrefs.Hours(0, 24), Map.of(java.time.DayOfWeek.FRIDAY, new BoincPrefs.Hours(18, 24),
        java.time.DayOfWeek.MONDAY, new BoincPrefs.Hours(5, 5)), 0, 90, 0.1, 0, 0, 0, 0, true, 3, 25);
    assertThat(BoincLimits.hours(p)).as("an all-day day under an all-day week adds nothing").isEqualTo("fri 18:00-00:00");
    assertThat(BoincLimits.hours(d)).isEmpty();
  }

  private static BoincPrefs with(BoincPrefs d, double gb, double pct, double minFree) {
    return new BoincPrefs(d.netHours(), d.dayNetHours(), gb, pct, minFree, 0, 0, 0, 0, true, 3, 25);
  }
}
