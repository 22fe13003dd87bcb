package org.cairn.gui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DonorRulesTest {
  private static final ZonedDateTime NOON = ZonedDateTime.of(2026, 11, 22, 12, 0, 0, 0, ZoneOffset.UTC);
  private static final long S = 1_000_000_000L;

  @Test
  void busyCpu_needsToLastBeforeItCounts_andToStopBeforeItClears() {
    double[] load = {0.95};
    DonorRules r = new DonorRules(DonorRules.Settings.parse(0.8, "30s", null, null), () -> load[0], () -> 0);
    assertThat(r.evaluate(NOON, 0)).isNull();
    assertThat(r.evaluate(NOON, 29 * S)).isNull();
    assertThat(r.evaluate(NOON, 30 * S)).contains("busy").contains("80 %");
    load[0] = 0.1;
    assertThat(r.evaluate(NOON, 40 * S)).as("still busy until the load stays low").isNotNull();
    load[0] = 0.9; // a spike resets the calm period
    assertThat(r.evaluate(NOON, 45 * S)).isNotNull();
    load[0] = 0.1;
    assertThat(r.evaluate(NOON, 50 * S)).isNotNull();
    assertThat(r.evaluate(NOON, 80 * S)).isNull();
  }

  @Test
  void hours_andOvernightWindows() {
    DonorRules day = new DonorRules(DonorRules.Settings.parse(1, "1s", "08:00-18:00", null), () -> 0, () -> 0);
    assertThat(day.evaluate(NOON, 0)).isNull();
    assertThat(day.evaluate(NOON.withHour(19), 0)).contains("outside donation hours 08:00-18:00");
    assertThat(DonorRules.within(LocalTime.of(23, 0), LocalTime.of(22, 0), LocalTime.of(6, 0))).isTrue();
    assertThat(DonorRules.within(LocalTime.of(5, 59), LocalTime.of(22, 0), LocalTime.of(6, 0))).isTrue();
    assertThat(DonorRules.within(LocalTime.of(12, 0), LocalTime.of(22, 0), LocalTime.of(6, 0))).isFalse();
    assertThatThrownBy(() -> DonorRules.Settings.parse(0.8, "1s", "8-18", null)).hasMessageContaining("08:00-18:00");
  }

  @Test
  void dailyUploadCap_resetsAtMidnight() {
    AtomicLong uploaded = new AtomicLong(5_000);
    DonorRules r = new DonorRules(DonorRules.Settings.parse(1, "1s", null, "1KiB"), () -> 0, uploaded::get);
    assertThat(r.evaluate(NOON, 0)).isNull(); // the day starts at 5,000 bytes
    uploaded.addAndGet(1023);
    assertThat(r.evaluate(NOON, 0)).isNull();
    uploaded.addAndGet(1);
    assertThat(r.evaluate(NOON, 0)).contains("daily upload cap");
    assertThat(r.evaluate(NOON.plusDays(1), 0)).isNull();
  }

  @Test
  void theOwnersPointerMakesTheDonorBusy_untilItsIdleTimePasses() {
    java.awt.Point[] at = {new java.awt.Point(10, 10)};
    DonorRules r = new DonorRules(DonorRules.Settings.parse(1, "1s", null, null), () -> 0, () -> 0);
    r.watchOwnerInput(new OwnerInput(() -> at[0], java.time.Duration.ofSeconds(30)));
    assertThat(r.evaluate(NOON, 0)).as("the first look only learns where the pointer is").isNull();
    assertThat(r.ownerPresent()).isFalse();
    assertThat(r.evaluate(NOON, 2 * S)).isNull();
    at[0] = new java.awt.Point(300, 200);
    assertThat(r.evaluate(NOON, 4 * S)).isEqualTo("the owner is using the computer");
    assertThat(r.ownerPresent()).isTrue();
    assertThat(r.evaluate(NOON, 33 * S)).as("still within the idle time").isNotNull();
    assertThat(r.evaluate(NOON, 34 * S)).as("30 s without input").isNull();
    assertThat(r.ownerPresent()).isFalse();
  }

  @Test
  void theOwnerIsPresentOutsideTheDonationHoursAndUnderTheirLoad_butNotForAnUploadCap() {
    DonorRules hours = new DonorRules(DonorRules.Settings.parse(1, "1s", "08:00-18:00", null), () -> 0, () -> 0);
    hours.evaluate(NOON.withHour(19), 0);
    assertThat(hours.ownerPresent()).isTrue();
    DonorRules load = new DonorRules(DonorRules.Settings.parse(0.5, "1s", null, null), () -> 0.9, () -> 0);
    load.evaluate(NOON, 0);
    load.evaluate(NOON, S);
    assertThat(load.ownerPresent()).isTrue();
    AtomicLong uploaded = new AtomicLong();
    DonorRules cap = new DonorRules(DonorRules.Settings.parse(1, "1s", null, "1KiB"), () -> 0, uploaded::get);
    cap.evaluate(NOON, 0);
    uploaded.set(4096);
    assertThat(cap.evaluate(NOON, 0)).contains("daily upload cap");
    assertThat(cap.ownerPresent()).isFalse();
  }
}
