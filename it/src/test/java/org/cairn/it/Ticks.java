package org.cairn.it;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The counter the checkpointer tests run prints {@code tick N STATE} lines: what they printed, read back. */
final class Ticks {
  private static final Pattern TICK = Pattern.compile("tick (\\d+) (\\d+)");

  private Ticks() {}

  /** Each {@code tick N STATE} line of {@code out} as {N, STATE}, in order (other lines, and cut ones, skipped). */
  static List<long[]> of(String out) {
    List<long[]> t = new ArrayList<>();
    for (String line : out.split("\n")) {
      Matcher m = TICK.matcher(line.strip());
      if (m.matches()) {
        t.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))});
      }
    }
    return t;
  }

  /** The last tick's N, or -1 when there is none. */
  static int last(String out) {
    List<long[]> t = of(out);
    return t.isEmpty() ? -1 : (int) t.get(t.size() - 1)[0];
  }
}
