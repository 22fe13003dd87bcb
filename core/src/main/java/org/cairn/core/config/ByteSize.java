package org.cairn.core.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte sizes written the way people write them: {@code 1048576}, {@code 64KiB}, {@code 2GiB}, {@code 1.5GB}. */
public final class ByteSize {
  private static final Pattern SIZE = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*([kmgtp]?)(i?)(b?)\\s*");

  private ByteSize() {}

  /**
   * Parses a size; binary units (KiB, MiB, GiB, TiB, and bare K/M/G/T) are powers of 1024, decimal
   * ones (KB, MB, GB, TB) powers of 1000.
   *
   * @throws IllegalArgumentException naming the bad value
   */
  public static long parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("size is missing");
    }
    Matcher m = SIZE.matcher(text.toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("not a size: '" + text + "' (use e.g. 1048576, 64KiB, 1MiB, 2GiB, 500MB)");
    }
    String unit = m.group(2);
    boolean decimal = m.group(3).isEmpty() && !m.group(4).isEmpty();
    long base = decimal ? 1000 : 1024;
    int exp = unit.isEmpty() ? 0 : "kmgtp".indexOf(unit) + 1;
    double value = Double.parseDouble(m.group(1)) * Math.pow(base, exp);
    if (value > Long.MAX_VALUE) {
      throw new IllegalArgumentException("size too large: '" + text + "'");
    }
    return (long) value;
  }

  /** Human form with binary units, e.g. {@code 1.5 MiB}. */
  public static String format(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = bytes;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, v >= 100 ? "%.0f %s" : "%.1f %s", v, units[u]);
  }
}
