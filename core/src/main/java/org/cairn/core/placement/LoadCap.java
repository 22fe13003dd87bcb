package org.cairn.core.placement;

/**
 * The per-donor cap of placement (docs/simulation.md, "Durability over a month"): a donor may receive a piece while
 * what it holds is under {@code factor} times the grid's mean, counted with the placement being made. With every link
 * alike FALCON ranks by CRLS, and CRLS ranks the same steadily idle donors first for almost every compute host, so
 * uncapped it keeps a grid's data on its best ~100 of 2,000 donors; capped at f times the mean, no donor holds more
 * than f times its share, so the data is spread over at least 1/f of the grid (the best-ranked 1/f when their scores
 * agree).
 *
 * <p>The bound includes the pieces being placed ({@code (held + n * fragment) / donors}), so an empty grid admits
 * every donor; a donor is admitted while it holds strictly less than the bound.
 *
 * @param factor how many times the grid's mean one donor may hold (at least 1)
 */
public record LoadCap(double factor) {
  /**
   * The default: 8 times the mean, so the data sits on at least an eighth of the grid. Chosen with the durability
   * simulation (docs/simulation.md, "A cap per donor"): in its harsh month, code:4+2 with factors 2 / 4 / 8 had 381 /
   * 211 / 151 versions unreadable for a while (uncapped 360, random 46), while the most repair traffic on one donor in a
   * day was 2.2 / 2.6 / 4.0 GB (uncapped 59 GB): 8 reads best of the three and every factor ends the hot donors.
   */
  public static final double DEFAULT_FACTOR = 8;

  public LoadCap {
    if (!(factor >= 1) || Double.isInfinite(factor)) {
      throw new IllegalArgumentException("the cap factor must be a finite number >= 1, was " + factor);
    }
  }

  public static LoadCap defaults() {
    return new LoadCap(DEFAULT_FACTOR);
  }

  /**
   * What a grid holds: the bytes on its donors (the larger of reported and placed, {@link Candidate#heldBytes()}) and
   * how many donors it has (DOWN ones too: they hold their share).
   */
  public record GridLoad(double heldBytes, int donors) {
    public GridLoad {
      if (!(heldBytes >= 0) || donors < 0) {
        throw new IllegalArgumentException("a grid's load needs held bytes >= 0 and donors >= 0, was " + heldBytes + ", " + donors);
      }
    }

    /** The grid of the given candidates (every one, whatever its state). */
    public static GridLoad of(java.util.List<Candidate> candidates) {
      double held = 0;
      for (Candidate c : candidates) {
        held += c.heldBytes();
      }
      return new GridLoad(held, candidates.size());
    }
  }

  /** The bound for this request's pieces: {@code factor} times the grid's mean once they are placed, in bytes. */
  public double bound(GridLoad grid, PlacementRequest request) {
    double after = grid.heldBytes() + (double) request.n() * request.fragmentBytes();
    return factor * after / Math.max(1, grid.donors());
  }

  /** Whether a donor holding {@code heldBytes} may receive a piece under {@code bound}. */
  public static boolean admits(long heldBytes, double bound) {
    return heldBytes < bound;
  }
}
