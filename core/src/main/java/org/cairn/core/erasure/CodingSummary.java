package org.cairn.core.erasure;

import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The coding of a set of chunks as they really are, one rule for every place that reports it
 * (versions, verify, the status page): the one spec when all agree, else {@code mixed} with the
 * weakest among them ({@link Redundancy#WEAKEST_FIRST}); a chunk whose coding is unknown (the index
 * lost it) is weakest of all, {@code lost}.
 *
 * @param coding the spec, {@code mixed}, {@code lost}, or null for no chunks
 * @param weakest the weakest spec when mixed (or {@code lost}), else null
 */
public record CodingSummary(String coding, String weakest) {

  /** Summarises chunk codings (specs; null for a chunk the index does not know). */
  public static CodingSummary of(Iterable<String> specs) {
    SortedSet<String> seen = new TreeSet<>();
    Redundancy weakest = null;
    boolean missing = false;
    for (String s : specs) {
      if (s == null) {
        missing = true;
        continue;
      }
      Redundancy r = Redundancy.parse(s);
      seen.add(r.spec());
      if (weakest == null || Redundancy.WEAKEST_FIRST.compare(r, weakest) < 0) {
        weakest = r;
      }
    }
    if (missing) {
      return new CodingSummary(seen.isEmpty() ? "lost" : "mixed", "lost");
    }
    if (seen.size() <= 1) {
      return new CodingSummary(seen.isEmpty() ? null : seen.first(), null);
    }
    return new CodingSummary("mixed", weakest.spec());
  }

  /** One line: {@code code:4+2}, or {@code mixed (weakest code:2+1)}. */
  @Override
  public String toString() {
    return weakest == null ? String.valueOf(coding) : coding + " (weakest " + weakest + ")";
  }
}
