package org.cairn.core.config;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations written the way people write them: {@code 500ms}, {@code 5s}, {@code 10m}, {@code 2h}, {@code 14d}. */
public final class Durations {
  private static final Pattern DURATION = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)?\\s*");

  private Durations() {}

  /**
   * Parses a duration; a bare number is seconds.
   *
   * @throws IllegalArgumentException naming the bad value
   */
  public static Duration parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("duration is missing");
    }
    Matcher m = DURATION.matcher(text.toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("not a duration: '" + text + "' (use e.g. 500ms, 5s, 10m, 2h, 14d)");
    }
    double v = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    double millis;
    switch (unit) {
      case "ms":
        millis = v;
        break;
      case "m":
        millis = v * 60_000;
        break;
      case "h":
        millis = v * 3_600_000;
        break;
      case "d":
        millis = v * 86_400_000;
        break;
      default:
        millis = v * 1000;
        break;
    }
    return Duration.ofMillis(Math.round(millis));
  }
}
