package org.cairn.core.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.cairn.core.availability.HostState;
import org.junit.jupiter.api.Test;

/** The per-donor cap on FALCON's placement (LoadCap, CappedPlacement). */
class CappedPlacementTest {
  private static final double MB = 1e6;
  private static final PlacementRequest FOUR_PLUS_TWO = new PlacementRequest(200_000_000L, 4, 2, 3600, 600, 0, 12.5 * MB, 0);
  private static final long PIECE = FOUR_PLUS_TWO.fragmentBytes();
  private static final PlacementPolicy CAPPED_AT_4 = new CappedPlacement(new FalconPlacement(), new LoadCap(4));

  /** 200 donors, seeded CRLS in [0.95, 1.7], one link for all (so FALCON ranks by CRLS, as in the simulation). */
  private static double[] seededScores(int donors, long seed) {
    Random r = new Random(seed);
    double[] crls = new double[donors];
    for (int i = 0; i < donors; i++) {
      crls[i] = 0.95 + 0.75 * r.nextDouble();
    }
    return crls;
  }

  private static List<Candidate> grid(double[] crls, long[] reported, long[] placed) {
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < crls.length; i++) {
      out.add(new Candidate(String.format("d%03d", i), HostState.RUNNING, 1L << 40, crls[i], 10 * MB).withHeld(reported[i], placed[i]));
    }
    return out;
  }

  /** Places {@code rounds} versions, each donor reporting what it really holds; returns the pieces each donor got. */
  private static long[] placeRounds(PlacementPolicy policy, double[] crls, int rounds) throws Exception {
    long[] held = new long[crls.length];
    for (int round = 0; round < rounds; round++) {
      for (String h : policy.place(grid(crls, held, held), FOUR_PLUS_TWO).hosts()) {
        held[Integer.parseInt(h.substring(1))] += PIECE;
      }
    }
    return held;
  }

  private static double shareOfTop(long[] held, int top) {
    long[] sorted = held.clone();
    Arrays.sort(sorted);
    long sum = Arrays.stream(sorted).sum();
    long topSum = 0;
    for (int i = 0; i < top; i++) {
      topSum += sorted[sorted.length - 1 - i];
    }
    return (double) topSum / sum;
  }

  @Test
  void uncappedFalconPutsEveryPieceOnItsSixBestDonors_cappedHoldsNoDonorAboveFourTimesTheMean() throws Exception {
    double[] crls = seededScores(200, 11);
    long[] uncapped = placeRounds(new FalconPlacement(), crls, 300);
    long[] capped = placeRounds(CAPPED_AT_4, crls, 300);
    assertThat(shareOfTop(uncapped, 10)).as("uncapped: the top 10 of 200 donors' share").isGreaterThan(0.99);
    assertThat(shareOfTop(capped, 10)).as("capped: the top 10 of 200 donors' share (4x the mean each: 20 %)").isLessThanOrEqualTo(0.21);
    double mean = (double) Arrays.stream(capped).sum() / capped.length;
    assertThat((double) Arrays.stream(capped).max().orElseThrow()).as("under 4x the mean before its last piece")
        .isLessThanOrEqualTo(4 * mean + PIECE);
    assertThat(Arrays.stream(capped).filter(h -> h > 0).count()).as("at least a quarter of the grid holds data").isGreaterThanOrEqualTo(50);
  }

  @Test
  void theCappedPiecesStillGoToTheBetterScoredDonors() throws Exception {
    double[] crls = seededScores(200, 11);
    long[] capped = placeRounds(PlacementPolicy.parse("falcon"), crls, 300);
    double[] sorted = crls.clone();
    Arrays.sort(sorted);
    double median = sorted[sorted.length / 2];
    double weighted = 0;
    long pieces = 0;
    for (int i = 0; i < crls.length; i++) {
      weighted += crls[i] * (capped[i] / PIECE);
      pieces += capped[i] / PIECE;
      if (crls[i] < median) {
        assertThat(capped[i]).as("donor %d, CRLS %.3f below the median, gets nothing", i, crls[i]).isZero();
      }
    }
    assertThat(weighted / pieces).as("mean CRLS of a placed piece").isGreaterThan(sorted[sorted.length * 3 / 4]);
  }

  @Test
  void anEmptyGridAdmitsEveryone_soTheCappedAnswerIsFalconsOwn() throws Exception {
    double[] crls = seededScores(50, 3);
    long[] none = new long[50];
    PlacementRequest request = new PlacementRequest(200_000_000L, 4, 2, 3600, 600, 0, 12.5 * MB, 6);
    assertThat(PlacementPolicy.parse("falcon").place(grid(crls, none, none), request).toString())
        .isEqualTo(new FalconPlacement().place(grid(crls, none, none), request).toString());
  }

  /**
   * Capped at 4x. At most 1/f of a grid can be over f times its mean, so fewer than n eligible donors under the cap happens when most
   * of the grid is DOWN (holding little, it lowers the mean) and the eligible donors are the loaded ones: 8 eligible, 40
   * DOWN and empty.
   */
  @Test
  void withFewerThanNDonorsUnderTheCap_theLeastLoadedOfTheRestAreLifted_andPlacementNeverFails() throws Exception {
    double[] crls = new double[48];
    long[] held = new long[48];
    long[] eligibleHeld = {0, 0, 900, 350, 500, 400, 800, 700};
    for (int i = 0; i < 48; i++) {
      crls[i] = i < 8 ? 1.7 - 0.1 * i : 1.7;
      held[i] = i < 8 ? eligibleHeld[i] * PIECE : 0;
    }
    PlacementRequest request = new PlacementRequest(200_000_000L, 2, 2, 3600, 600, 0, 12.5 * MB, 3);
    List<Candidate> candidates = new ArrayList<>();
    for (Candidate c : grid(crls, held, held)) {
      candidates.add(candidates.size() < 8 ? c : new Candidate(c.id(), HostState.DOWN, c.freeBytes(), c.crls(), 10 * MB));
    }
    double bound = new LoadCap(4).bound(LoadCap.GridLoad.of(candidates), request);
    assertThat(Arrays.stream(eligibleHeld).filter(h -> LoadCap.admits(h * PIECE, bound)).count()).as("eligible under the bound")
        .isEqualTo(2);
    Placement p = CAPPED_AT_4.place(candidates, request);
    assertThat(p.hosts()).as("d000, d001 under the cap; d003 and d005 the least loaded of the rest")
        .containsExactlyInAnyOrder("d000", "d001", "d003", "d005");
    assertThat(p.alternates()).as("the next least loaded, in that order").containsExactly("d004", "d007", "d006");
  }

  @Test
  void aCapNeverRefusesWhatFalconWouldPlace_andFailsOnlyWhereFalconFails() throws Exception {
    double[] crls = {1.7, 1.6, 1.5};
    long[] held = {0, 500 * PIECE, 900 * PIECE};
    PlacementPolicy capped = PlacementPolicy.parse("falcon");
    assertThat(capped.place(grid(crls, held, held), PlacementRequest.of(3_000_000, 2, 1)).hosts())
        .containsExactlyInAnyOrder("d000", "d001", "d002");
    assertThatThrownBy(() -> capped.place(grid(crls, held, held), PlacementRequest.of(4_000_000, 2, 2)))
        .isInstanceOf(NotEnoughHostsException.class).hasMessageContaining("have 3 of 3 known");
  }

  /**
   * A donor that always reports holding nothing: had the tracker trusted reports alone it would get a piece of every
   * version (it has the best CRLS and looks empty); counting what it placed there, the tracker gives it no more than
   * the cap.
   */
  @Test
  void aDonorClaimingToHoldNothingCannotAttractEverything_theTrackersOwnCountCapsIt() throws Exception {
    double[] crls = seededScores(100, 5);
    crls[42] = 1.7; // the liar: best scored of all
    PlacementPolicy capped = PlacementPolicy.parse("falcon");
    Map<Boolean, long[]> heldByTrust = new HashMap<>();
    for (boolean countPlaced : new boolean[] {false, true}) {
      long[] held = new long[crls.length];
      for (int round = 0; round < 400; round++) {
        long[] reported = held.clone();
        reported[42] = 0;
        long[] placed = countPlaced ? held.clone() : new long[crls.length];
        for (String h : capped.place(grid(crls, reported, placed), FOUR_PLUS_TWO).hosts()) {
          held[Integer.parseInt(h.substring(1))] += PIECE;
        }
      }
      heldByTrust.put(countPlaced, held);
    }
    assertThat(heldByTrust.get(false)[42] / PIECE).as("trusting its report: a piece of every version").isEqualTo(400);
    long[] held = heldByTrust.get(true);
    double mean = (double) Arrays.stream(held).sum() / held.length;
    assertThat((double) held[42]).as("counting what was placed there: at most 8x the mean")
        .isLessThanOrEqualTo(LoadCap.DEFAULT_FACTOR * mean + PIECE);
  }

  @Test
  void heldBytesAreTheLargerOfWhatTheDonorReportsAndWhatWasPlacedThere() {
    Candidate c = new Candidate("a", HostState.RUNNING, 1, 1, 1);
    assertThat(c.heldBytes()).isZero();
    assertThat(c.withHeld(0, 500).heldBytes()).as("under-reporting").isEqualTo(500);
    assertThat(c.withHeld(900, 500).heldBytes()).as("garbage or another tracker's pieces").isEqualTo(900);
    assertThatThrownBy(() -> c.withHeld(-1, 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1 reported");
  }

  @Test
  void falconIsCappedAtTheDefaultFactor() {
    assertThat(PlacementPolicy.parse("falcon")).isInstanceOfSatisfying(CappedPlacement.class,
        c -> assertThat(c.cap().factor()).isEqualTo(LoadCap.DEFAULT_FACTOR).isEqualTo(8));
  }

  @Test
  void aCapFactorBelowOneOrNotANumberIsRefused() {
    for (double bad : new double[] {0.99, 0, -4, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> new LoadCap(bad)).as("factor %s", bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("finite number >= 1");
    }
    assertThatThrownBy(() -> new LoadCap.GridLoad(-1, 3)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theBoundCountsThePiecesBeingPlaced() {
    LoadCap cap = new LoadCap(2);
    // 10 donors holding 10 pieces in all, 6 more being placed: mean 1.6 pieces, bound 3.2 pieces
    double bound = cap.bound(new LoadCap.GridLoad(10.0 * PIECE, 10), FOUR_PLUS_TWO);
    assertThat(bound).isEqualTo(3.2 * PIECE, org.assertj.core.api.Assertions.within(1.0));
    assertThat(LoadCap.admits(3 * PIECE, bound)).isTrue();
    assertThat(LoadCap.admits(4 * PIECE, bound)).isFalse();
    assertThat(new LoadCap(1).bound(new LoadCap.GridLoad(0, 0), FOUR_PLUS_TWO)).as("no donors known: no division by 0")
        .isEqualTo(6.0 * PIECE);
  }
}
