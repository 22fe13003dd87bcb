package org.cairn.tracker.placement;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the tracker's placements put on each peer, fading as deletions go unseen. */
class PlacedBytesTest {
  private static final long DAY = PlacedBytes.HALF_LIFE.toMillis();

  @Test
  void aPlacementCountsAtOnce_andHalvesEachHalfLife() {
    PlacedBytes placed = new PlacedBytes();
    placed.add("a", 1000, 0);
    assertThat(placed.at("a", 0)).isEqualTo(1000);
    assertThat(placed.at("a", DAY)).isEqualTo(500);
    assertThat(placed.at("a", 2 * DAY)).isEqualTo(250);
    assertThat(placed.at("never", DAY)).isZero();
  }

  @Test
  void placementsAddToWhatIsLeftOfTheEarlierOnes() {
    PlacedBytes placed = new PlacedBytes();
    placed.add("a", 1000, 0);
    placed.add("a", 1000, DAY);
    assertThat(placed.at("a", DAY)).isEqualTo(1500);
  }

  @Test
  void aClockThatStepsBackDoesNotInflateTheCount() {
    PlacedBytes placed = new PlacedBytes();
    placed.add("a", 1000, DAY);
    assertThat(placed.at("a", 0)).as("an earlier time reads as no time passed").isEqualTo(1000);
  }
}
