package org.cairn.tracker.membership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.cairn.core.api.member.HeartbeatRequest;
import org.cairn.core.api.member.RegisterRequest;
import org.cairn.tracker.MutableClock;
import org.cairn.tracker.auth.Refused;
import org.cairn.tracker.store.TrackerStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What membership believes of what donors and compute hosts say about themselves. */
class MembershipTest {
  @TempDir
  Path dir;

  private final MutableClock clock = new MutableClock(1_800_000_000_000L);
  private TrackerStore store;
  private Membership membership;

  @BeforeEach
  void open() throws IOException {
    store = TrackerStore.open(dir);
    membership = new Membership(store, clock, Duration.ofSeconds(3));
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static RegisterRequest at(String id, String address) {
    return new RegisterRequest(id, address, "RUNNING", 1000, 0, 2000, 0, false, "t");
  }

  @Test
  void aDonorCannotRegisterAtALivePeersAddress() throws IOException {
    membership.register(at("p1", "10.0.0.1:7600"));
    assertThatThrownBy(() -> membership.register(at("evil", "10.0.0.1:7600"))).isInstanceOf(Refused.class)
        .hasMessage("address 10.0.0.1:7600 is registered to live peer p1")
        .satisfies(e -> assertThat(((Refused) e).status()).isEqualTo(409));
    assertThatThrownBy(() -> membership.register(at("evil", "10.0.0.1:07600"))).as("the same port written otherwise")
        .isInstanceOf(Refused.class);
    assertThatThrownBy(() -> membership.requireFreeAddress("evil", "10.0.0.1:7600")).as("asked before a registration")
        .isInstanceOf(Refused.class);
    membership.requireFreeAddress("p1", "10.0.0.1:7600");
    assertThat(membership.peer("evil")).isNull();
    assertThat(membership.peer("p1").address()).isEqualTo("10.0.0.1:7600");
  }

  @Test
  void aPeerReRegistersAtItsOwnAddress_andAnotherTakesTheAddressOfAPeerThatIsDown() throws IOException {
    membership.register(at("p1", "10.0.0.1:7600"));
    membership.register(at("p1", "10.0.0.1:7600"));
    membership.register(at("p2", "10.0.0.2:7600"));
    assertThat(membership.leave("p2")).isTrue();
    assertThat(membership.register(at("p3", "10.0.0.2:7600")).id()).as("p2 left").isEqualTo("p3");
    clock.advance(Duration.ofSeconds(4));
    assertThat(membership.register(at("p4", "10.0.0.1:7600")).id()).as("p1 timed out: DOWN").isEqualTo("p4");
  }

  @Test
  void aPeerThatMovesFreesItsOldAddress_andTheAddressesAreKnownAgainAfterARestart() throws IOException {
    membership.register(at("p1", "10.0.0.1:7600"));
    membership.register(at("p1", "10.0.0.9:7600"));
    assertThat(membership.register(at("p2", "10.0.0.1:7600")).id()).as("p1 moved away").isEqualTo("p2");
    assertThatThrownBy(() -> membership.register(at("p3", "10.0.0.9:7600"))).as("p1's new address")
        .isInstanceOf(Refused.class).hasMessageContaining("live peer p1");
    store.close();
    store = TrackerStore.open(dir);
    membership = new Membership(store, clock, Duration.ofSeconds(3));
    assertThatThrownBy(() -> membership.register(at("p3", "10.0.0.9:7600"))).as("restored from the store")
        .isInstanceOf(Refused.class).hasMessageContaining("live peer p1");
    assertThatThrownBy(() -> membership.register(at("p3", "10.0.0.1:7600"))).isInstanceOf(Refused.class)
        .hasMessageContaining("live peer p2");
  }

  @Test
  void ofManyPeersClaimingOneAddressAtOnce_exactlyOneGetsIt_whileOthersRegisterAlongside() throws Exception {
    int claimants = 16;
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
    try {
      java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
      java.util.List<java.util.concurrent.Future<Boolean>> claims = new java.util.ArrayList<>();
      for (int i = 0; i < claimants; i++) {
        String id = "claimant-" + i;
        String own = "10.1.0." + (i + 1) + ":7600";
        claims.add(pool.submit(() -> {
          start.await();
          membership.register(at(id + "-elsewhere", own)); // an unrelated registration in between
          try {
            membership.register(at(id, "10.0.0.1:7600"));
            return true;
          } catch (Refused e) {
            return false;
          }
        }));
      }
      start.countDown();
      int won = 0;
      for (java.util.concurrent.Future<Boolean> c : claims) {
        won += c.get(30, java.util.concurrent.TimeUnit.SECONDS) ? 1 : 0;
      }
      assertThat(won).isEqualTo(1);
      assertThat(membership.peers()).hasSize(claimants + 1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aComputeHostBelongsToTheFirstTokenThatHeartbeatsIt_untilARestartToo() throws IOException {
    membership.computeHeartbeat("job-1", true, "tok-a");
    assertThatThrownBy(() -> membership.computeHeartbeat("job-1", false, "tok-b")).isInstanceOf(Refused.class)
        .hasMessageContaining("belongs to another token");
    assertThat(membership.computeStates()).containsEntry("job-1", true);
    membership.computeHeartbeat("job-1", false, null); // the admin
    assertThat(membership.computeStates()).containsEntry("job-1", false);
    store.close();
    store = TrackerStore.open(dir);
    membership = new Membership(store, clock, Duration.ofSeconds(3));
    assertThatThrownBy(() -> membership.computeHeartbeat("job-1", true, "tok-b")).isInstanceOf(Refused.class);
    membership.computeHeartbeat("job-1", true, "tok-a");
    assertThat(membership.computeStates()).containsEntry("job-1", true);
  }

  @Test
  void aDonorsClaimsOfFreeSpaceAndDiskRateAreClamped() throws IOException {
    membership.register(new RegisterRequest("p1", "10.0.0.1:7600", "RUNNING", Long.MAX_VALUE, -5, 2000, -1, false, "t"));
    assertThat(membership.peer("p1").freeBytes()).as("no more free than the quota").isEqualTo(2000);
    assertThat(membership.peer("p1").usedBytes()).isZero();
    membership.heartbeat("p1", new HeartbeatRequest("RUNNING", 1L << 40, 10, 1, false, 1e15));
    assertThat(membership.peer("p1").freeBytes()).isEqualTo(2000);
    assertThat(membership.peer("p1").diskWriteBytesPerSecond()).isEqualTo(Membership.MAX_DISK_RATE);
    membership.register(new RegisterRequest("p2", "10.0.0.2:7600", "RUNNING", Long.MAX_VALUE, 0, Long.MAX_VALUE, 0, false, "t"));
    assertThat(membership.peer("p2").quotaBytes()).isEqualTo(Membership.MAX_BYTES);
    assertThat(membership.peer("p2").freeBytes()).isEqualTo(Membership.MAX_BYTES);
  }

  @Test
  void standingsAreWhatThePeerViewsSay_forEveryPeer_downOnesIncluded() throws IOException {
    membership.register(at("p1", "10.0.0.1:7600"));
    membership.register(new RegisterRequest("p2", "10.0.0.2:7600", "LOADED", 500, 0, 2000, 0, true, "t"));
    membership.register(at("p3", "10.0.0.3:7600"));
    clock.advance(Duration.ofSeconds(2));
    membership.heartbeat("p1", new HeartbeatRequest("BUSY", 700, 10, 1, false, 5e7));
    membership.heartbeat("p2", new HeartbeatRequest("LOADED", 400, 10, 1, true));
    clock.advance(Duration.ofSeconds(2));
    assertThat(membership.peer("p3").state()).isEqualTo("DOWN");
    assertThat(membership.standings()).containsExactlyInAnyOrderElementsOf(membership.peers().stream()
        .map(v -> new Membership.Standing(v.id(), org.cairn.core.availability.HostState.parse(v.state()), v.paused(), v.freeBytes(),
            v.usedBytes(), v.diskWriteBytesPerSecond()))
        .toList());
    assertThat(membership.standings()).extracting(Membership.Standing::state).containsExactlyInAnyOrder(
        org.cairn.core.availability.HostState.BUSY, org.cairn.core.availability.HostState.LOADED,
        org.cairn.core.availability.HostState.DOWN);
    assertThat(membership.ids()).containsExactlyInAnyOrder("p1", "p2", "p3");
  }

  @Test
  void aPeerIsNotDownWhileTheTrackerItselfTakesHeartbeatsLate_andIsOnceItCaughtUp() throws IOException {
    long[] behindMillis = {5_000};
    membership.allowForOwnDelay(() -> behindMillis[0]);
    membership.register(at("p1", "10.0.0.1:7600"));
    clock.advance(Duration.ofSeconds(4)); // past the 3 s timeout, within the timeout plus the tracker's 5 s delay
    assertThat(membership.detectFailures()).as("peers found DOWN while the tracker is 5 s behind").isZero();
    assertThat(membership.peer("p1").state()).isEqualTo("RUNNING");
    behindMillis[0] = 0;
    assertThat(membership.detectFailures()).as("caught up: the timeout alone").isEqualTo(1);
    assertThat(membership.peer("p1").state()).isEqualTo("DOWN");
  }
}
