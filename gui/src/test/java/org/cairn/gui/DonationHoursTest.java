package org.cairn.gui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

class DonationHoursTest {
  /** A Wednesday. */
  private static final ZonedDateTime WED_NOON = ZonedDateTime.of(2026, 12, 2, 12, 0, 0, 0, ZoneOffset.UTC);

  @Test
  void aDaysOwnWindowReplacesTheEveryDayOneOnThatDayOnly() {
    DonationHours h = DonationHours.parse("22:30-06:00, sat 09:00-13:15, sun 00:00-00:00");
    assertThat(h.outside(WED_NOON)).isEqualTo("22:30-06:00");
    assertThat(h.outside(WED_NOON.withHour(23))).isNull();
    assertThat(h.outside(WED_NOON.withHour(5))).isNull();
    assertThat(h.outside(WED_NOON.plusDays(3))).as("Saturday noon").isNull();
    assertThat(h.outside(WED_NOON.plusDays(3).withHour(23))).as("Saturday night").isEqualTo("sat 09:00-13:15");
    assertThat(h.outside(WED_NOON.plusDays(4))).as("Sunday, all day").isNull();
  }

  @Test
  void theTextFormReadsBackToTheSameHours() {
    for (String text : new String[] {"", "08:00-18:00", "sun 10:00-12:00", "22:30-06:00, sat 09:00-13:15, sun 00:00-00:00"}) {
      assertThat(DonationHours.parse(text).toString()).isEqualTo(text);
    }
    assertThat(DonationHours.parse(" sat 09:00-10:00 ,  07:00-08:00 ")).isEqualTo(DonationHours.parse("07:00-08:00, sat 09:00-10:00"));
  }

  @Test
  void anythingElseIsRefusedWithTheForm() {
    for (String bad : new String[] {"9-5", "08:00-18:00, 09:00-10:00", "sat 09:00-10:00, sat 11:00-12:00", "someday 09:00-10:00",
        "sat", "08:00-18:00-19:00", "25:00-26:00"}) {
      assertThatThrownBy(() -> DonationHours.parse(bad)).as(bad).hasMessageContaining("08:00-18:00").hasMessageContaining(bad);
    }
  }
}
