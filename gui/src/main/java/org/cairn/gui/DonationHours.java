package org.cairn.gui;

import java.time.DayOfWeek;
import java.time.LocalTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * When the donor gives its network: a window every day and, per weekday, a window of its own (BOINC's
 * {@code day_prefs}). The text form is the settings file's {@code donor-hours}: empty for always,
 * {@code 08:00-18:00} for every day, or a comma list whose entries may name a day
 * ({@code 22:30-06:00, sat 09:00-13:15, sun 00:00-00:00}); a window whose ends are equal is the whole day,
 * one that ends before it starts runs past midnight, and a day's window is judged by the time of day on
 * that day (as BOINC judges its own).
 */
public final class DonationHours {
  /** A window of the day; equal ends are the whole day. */
  public record Window(LocalTime from, LocalTime to) {
    public boolean contains(LocalTime t) {
      if (from.equals(to)) {
        return true;
      }
      return from.isBefore(to) ? !t.isBefore(from) && t.isBefore(to) : !t.isBefore(from) || t.isBefore(to);
    }

    @Override
    public String toString() {
      return from + "-" + to;
    }
  }

  public static final DonationHours ALWAYS = new DonationHours(null, Map.of());
  private static final String SYNTAX = "hours must look like 08:00-18:00, or a list such as 22:00-06:00, sat 09:00-13:00, was '";

  private final Window everyDay;
  private final Map<DayOfWeek, Window> days;

  public DonationHours(Window everyDay, Map<DayOfWeek, Window> days) {
    this.everyDay = everyDay;
    this.days = days.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(days));
  }

  /** Parses the text form; blank is always. */
  public static DonationHours parse(String text) {
    if (text == null || text.isBlank()) {
      return ALWAYS;
    }
    Window all = null;
    Map<DayOfWeek, Window> days = new EnumMap<>(DayOfWeek.class);
    for (String entry : text.split(",")) {
      String[] w = entry.trim().split("\\s+");
      if (w.length == 1 && all == null) {
        all = window(w[0], text);
      } else if (w.length == 2 && day(w[0]) != null && !days.containsKey(day(w[0]))) {
        days.put(day(w[0]), window(w[1], text));
      } else {
        throw new IllegalArgumentException(SYNTAX + text + "'");
      }
    }
    return new DonationHours(all, days);
  }

  private static Window window(String s, String text) {
    String[] p = s.split("-");
    if (p.length != 2) {
      throw new IllegalArgumentException(SYNTAX + text + "'");
    }
    try {
      return new Window(LocalTime.parse(p[0]), LocalTime.parse(p[1]));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(SYNTAX + text + "'", e);
    }
  }

  private static DayOfWeek day(String s) {
    for (DayOfWeek d : DayOfWeek.values()) {
      if (abbreviation(d).equals(s.toLowerCase(Locale.ROOT))) {
        return d;
      }
    }
    return null;
  }

  private static String abbreviation(DayOfWeek d) {
    return d.name().substring(0, 3).toLowerCase(Locale.ROOT);
  }

  /** The window in force on {@code day}, or null for the whole day. */
  public Window on(DayOfWeek day) {
    return days.getOrDefault(day, everyDay);
  }

  /** The window of every day without one of its own, or null when there is none. */
  public Window everyDay() {
    return everyDay;
  }

  public boolean always() {
    return everyDay == null && days.isEmpty();
  }

  /** Null when {@code now} is within the hours, else the window it is outside of, as text. */
  public String outside(ZonedDateTime now) {
    Window w = on(now.getDayOfWeek());
    if (w == null || w.contains(now.toLocalTime())) {
      return null;
    }
    return days.containsKey(now.getDayOfWeek()) ? abbreviation(now.getDayOfWeek()) + " " + w : w.toString();
  }

  /** The text form, which {@link #parse} reads back to equal hours. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(everyDay == null ? "" : everyDay.toString());
    days.forEach((d, w) -> b.append(b.length() == 0 ? "" : ", ").append(abbreviation(d)).append(' ').append(w));
    return b.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DonationHours h && java.util.Objects.equals(everyDay, h.everyDay) && days.equals(h.days);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(everyDay, days);
  }
}
