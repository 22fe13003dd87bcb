package org.cairn.sim.durability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The repair policy over hand-made bookkeeping: the grace period, the m-live rule, wipes. */
class RepairsTest {
  private static final long MIN = DurabilitySettings.MINUTE;
  private static final long GRACE = 10 * MIN;

  private static DurabilitySettings settings() {
    return new DurabilitySettings(30, 1, 0, 1, 60, 100, 3, 20, 10, 9.5, 10, 60, 15, 1, 24, List.of("code:4+2"), List.of("falcon"), 1);
  }

  /** A grid of two labs of 15 and one 4+2 version on donors 0 (lab 0) and 15-19 (lab 1), before any event. */
  private static Fixture fixture(long... events) {
    WorldEvents w = WorldEvents.of(30, 15, DurabilitySettings.DAY, events);
    EventLoop loop = new EventLoop();
    Grid g = new Grid(settings(), w, new SlotHistory(w, 15 * MIN, DurabilitySettings.DAY, 3_600_000L), loop);
    Version v = new Version(0, 0, 4, 25_000_000, 29, new int[] {-1, -1, -1, -1, -1, -1}, new int[6]);
    g.versions.add(v);
    int[] holders = {0, 15, 16, 17, 18, 19};
    for (int i = 0; i < 6; i++) {
      g.addPiece(v, i, holders[i]);
    }
    for (int i = 0; i < w.size(); i++) {
      int e = i;
      loop.schedule(w.time(i), () -> g.donors.apply(w, e, g));
    }
    return new Fixture(g, v, new Repairs(g, new Policies("falcon", new SplittableRandom(1)), new SplittableRandom(2)));
  }

  private record Fixture(Grid grid, Version version, Repairs repairs) {}

  @Test
  void aHolderDownIsRepairedOnlyAfterTheGracePeriod() {
    Fixture f = fixture(MIN, WorldEvents.OUTAGE_START, 0);
    f.grid().loop.runUntil(MIN + GRACE - 1);
    assertThat(f.version().live).isEqualTo(5);
    assertThat(f.repairs().queue(f.grid().loop.now())).isEmpty();
    f.grid().loop.runUntil(MIN + GRACE);
    List<RepairQueue.Pending> q = f.repairs().queue(MIN + GRACE);
    assertThat(q).hasSize(1);
    assertThat(q.get(0).surplus()).isEqualTo(1);
    assertThat(q.get(0).missing()).containsExactly(0);
  }

  @Test
  void aVersionWithFewerThanMLivePiecesWaits_unreadableButNotLost_whileItsHoldersAreOnlyDown() {
    Fixture f = fixture(MIN, WorldEvents.OUTAGE_START, 1);
    f.grid().loop.runUntil(MIN + 2 * GRACE);
    assertThat(f.version().live).isEqualTo(1);
    assertThat(f.repairs().queue(f.grid().loop.now())).isEmpty();
    assertThat(f.version().unreadable).isTrue();
    assertThat(f.version().lost).isFalse();
    assertThat(f.grid().tally.unreadable).isEqualTo(1);
    assertThat(f.grid().tally.lost).isZero();
  }

  @Test
  void theTimeAVersionIsUnreadableIsCountedFromTheOutageToItsEnd() {
    Fixture f = fixture(MIN, WorldEvents.OUTAGE_START, 1, 61 * MIN, WorldEvents.OUTAGE_END, 1);
    f.grid().loop.runUntil(2 * 60 * MIN);
    assertThat(f.version().live).isEqualTo(6);
    assertThat(f.grid().tally.unreadableMillis).isEqualTo(60 * MIN);
    assertThat(f.version().unreadableSince).isEqualTo(-1);
  }

  @Test
  void wipingMoreHoldersThanTheParityLosesTheVersionForGood_andTheyDoNotComeBackWithTheirDonors() {
    Fixture f = fixture(MIN, WorldEvents.WIPE, 15, MIN, WorldEvents.WIPE, 16, MIN, WorldEvents.WIPE, 17, 2 * MIN, WorldEvents.RETURN, 15,
        2 * MIN, WorldEvents.RETURN, 16, 2 * MIN, WorldEvents.RETURN, 17);
    f.grid().loop.runUntil(3 * MIN);
    assertThat(f.version().lost).isTrue();
    assertThat(f.version().live).isEqualTo(3);
    assertThat(f.grid().tally.lost).isEqualTo(1);
  }

  @Test
  void aScanRebuildsTheMissingPieceOnADonorThatHeldNothingOfTheVersion_andTheVersionIsWholeAgain() {
    Fixture f = fixture(MIN, WorldEvents.WIPE, 15);
    f.repairs().start(); // scans from the month's start (0) every minute
    f.grid().loop.runUntil(MIN + GRACE + 30 * MIN);
    Version v = f.version();
    assertThat(v.live).isEqualTo(6);
    assertThat(v.holder[1]).isNotEqualTo(15).isNotIn(0, 16, 17, 18, 19, 29); // 29: the compute host
    assertThat(f.grid().tally.repairsDone).isEqualTo(1);
    assertThat(f.grid().tally.piecesRebuilt).isEqualTo(1);
    // four sources send a piece each, the executor receives four and sends one, the target receives one
    assertThat(f.grid().tally.repairBytes).isEqualTo(10L * v.pieceBytes);
  }
}
