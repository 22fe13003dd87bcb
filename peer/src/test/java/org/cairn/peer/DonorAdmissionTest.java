package org.cairn.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.cairn.core.availability.HostState;
import org.cairn.core.protocol.Refusal;
import org.cairn.peer.load.HostLoad;
import org.cairn.peer.store.FragmentStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DonorAdmissionTest {
  @TempDir
  Path dir;

  @Test
  void refusesWhilePausedBusyFullOrOverQuota_andTakesPiecesOtherwise() throws Exception {
    try (FragmentStore store = FragmentStore.open(dir.resolve("store"))) {
      DonatedSpace space = new DonatedSpace(store, dir, 10_000_000, 0);
      // two writers make the host FULL; no load is measured in this test
      HostLoad load = HostLoad.forPeer(dir, () -> 0L, 100e6, 0.5, 0.9, 2);
      DonorAdmission gate = new DonorAdmission(store, space, load, true);
      assertThat(gate.admit(1000)).as("paused by the donor").isEqualTo(Refusal.PAUSED);
      assertThat(gate.setPaused(true)).as("already paused: nothing changes").isFalse();
      assertThat(gate.setPaused(false)).isTrue();
      assertThat(gate.admit(1000)).isNull();
      assertThat(gate.admit(20_000_000)).as("more than the quota").isEqualTo(Refusal.QUOTA);

      assertThat(gate.setBusyReason("on battery")).isTrue();
      assertThat(gate.state()).isEqualTo(HostState.BUSY);
      assertThat(gate.admit(1000)).isEqualTo(Refusal.BUSY);
      assertThat(gate.setBusyReason("on battery")).isFalse();
      assertThat(gate.setBusyReason(null)).isTrue();
      assertThat(gate.state()).isEqualTo(HostState.RUNNING);

      gate.writerStarted();
      gate.writerStarted();
      assertThat(gate.state()).isEqualTo(HostState.FULL);
      assertThat(gate.admit(1000)).isEqualTo(Refusal.FULL);
      gate.writerFinished();
      assertThat(gate.admit(1000)).isNull();

      gate.served(300);
      gate.served(200);
      assertThat(gate.servedBytes()).isEqualTo(500);
    }
  }
}
