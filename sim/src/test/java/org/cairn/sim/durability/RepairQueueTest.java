package org.cairn.sim.durability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RepairQueueTest {
  private static RepairQueue.Pending p(int version, int surplus, boolean latest) {
    return new RepairQueue.Pending(version, surplus, latest, new int[] {0});
  }

  @Test
  void fewestLivePiecesBeyondMComeFirst_thenLatestVersions_thenByVersion() {
    List<RepairQueue.Pending> q = new ArrayList<>(List.of(p(1, 2, true), p(2, 0, false), p(3, 1, false), p(4, 0, true), p(5, 1, true),
        p(0, 1, true)));
    RepairQueue.sort(q);
    assertThat(q).extracting(RepairQueue.Pending::version).containsExactly(4, 2, 0, 5, 3, 1);
  }
}
