package org.cairn.tracker.membership;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.cairn.core.api.member.HeartbeatRequest;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.member.RegisterRequest;
import org.cairn.tracker.MutableClock;
import org.cairn.tracker.store.TrackerStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which heartbeats reach the store (in a group: the log): those that change what a restarted tracker or a new leader
 * reads back, not those that only move the time of the last heartbeat, which a restart does not read.
 */
class PeerRecordWritesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long QUOTA = 1L << 40;
  private static final long FREE = 1L << 39;

  @TempDir
  Path dir;

  private final MutableClock clock = new MutableClock(1_800_000_000_000L);
  private TrackerStore store;
  private Membership membership;

  @BeforeEach
  void open() throws IOException {
    store = TrackerStore.open(dir);
    membership = new Membership(store, clock, Duration.ofSeconds(30));
    membership.register(new RegisterRequest("p1", "10.0.0.1:7600", "RUNNING", FREE, 0, QUOTA, 0, false, "t"));
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static HeartbeatRequest beat(String state, long free, long used) {
    return new HeartbeatRequest(state, free, used, used > 0 ? 1 : 0, false);
  }

  private PeerRecord stored() throws IOException {
    return JSON.readValue(store.get(TrackerStore.Family.PEERS, "p1".getBytes(StandardCharsets.UTF_8)), PeerRecord.class);
  }

  @Test
  void heartbeatsThatOnlyMoveTheirTimeAreNotWritten_oneThatChangesTheStateIs() throws IOException {
    long registered = stored().lastHeartbeat();
    for (int i = 0; i < 5; i++) {
      clock.advance(Duration.ofSeconds(10));
      membership.heartbeat("p1", beat("RUNNING", FREE, 0));
    }
    assertThat(membership.peer("p1").lastHeartbeat()).as("the tracker knows the last beat").isEqualTo(registered + 50_000);
    assertThat(stored().lastHeartbeat()).as("the store was not written").isEqualTo(registered);

    clock.advance(Duration.ofSeconds(10));
    membership.heartbeat("p1", beat("BUSY", FREE, 0));
    assertThat(stored().reportedState()).isEqualTo("BUSY");
    assertThat(stored().lastHeartbeat()).isEqualTo(registered + 60_000);
  }

  @Test
  void piecesAndBytesHeldAreWritten_andFreeSpaceWhenItMovesBeyondTheSlackOrRunsOut() throws IOException {
    clock.advance(Duration.ofSeconds(10));
    membership.heartbeat("p1", beat("RUNNING", FREE, 4096));
    assertThat(stored().usedBytes()).isEqualTo(4096);
    assertThat(stored().fragments()).isEqualTo(1);

    clock.advance(Duration.ofSeconds(10));
    membership.heartbeat("p1", beat("RUNNING", FREE - Membership.FREE_SLACK, 4096));
    assertThat(stored().freeBytes()).as("within the slack").isEqualTo(FREE);
    clock.advance(Duration.ofSeconds(10));
    membership.heartbeat("p1", beat("RUNNING", FREE - Membership.FREE_SLACK - 1, 4096));
    assertThat(stored().freeBytes()).as("beyond it").isEqualTo(FREE - Membership.FREE_SLACK - 1);

    membership.register(new RegisterRequest("p2", "10.0.0.2:7600", "RUNNING", 1000, 0, QUOTA, 0, false, "t"));
    clock.advance(Duration.ofSeconds(10));
    membership.heartbeat("p2", beat("RUNNING", 0, 0));
    assertThat(JSON.readValue(store.get(TrackerStore.Family.PEERS, "p2".getBytes(StandardCharsets.UTF_8)), PeerRecord.class).freeBytes())
        .as("a peer that ran out of space, by 1,000 bytes").isZero();
  }

  @Test
  void aPeersRecordIsWrittenAgainAtLeastEveryRefresh() throws IOException {
    long registered = stored().lastHeartbeat();
    long beats = Membership.REFRESH.toMillis() / 10_000;
    for (long i = 1; i < beats; i++) {
      clock.advance(Duration.ofSeconds(10));
      membership.heartbeat("p1", beat("RUNNING", FREE, 0));
    }
    assertThat(stored().lastHeartbeat()).isEqualTo(registered);
    clock.advance(Duration.ofSeconds(10));
    membership.heartbeat("p1", beat("RUNNING", FREE, 0));
    assertThat(stored().lastHeartbeat()).isEqualTo(registered + Membership.REFRESH.toMillis());
  }

  @Test
  void afterLostWritesEveryPeersNextHeartbeatIsWrittenAgain() throws IOException {
    clock.advance(Duration.ofSeconds(10));
    membership.heartbeat("p1", beat("BUSY", FREE, 0));
    store.dropSoon(); // the batch holding it did not commit
    assertThat(stored().reportedState()).isEqualTo("RUNNING");
    membership.rewriteAll();
    clock.advance(Duration.ofSeconds(10));
    membership.heartbeat("p1", beat("BUSY", FREE, 0));
    assertThat(stored().reportedState()).isEqualTo("BUSY");
  }

  @Test
  void aRestartedTrackerKnowsWhatEachPeerLastSaid_thoughItsLastHeartbeatsWroteNothing() throws IOException {
    clock.advance(Duration.ofSeconds(10));
    membership.heartbeat("p1", new HeartbeatRequest("BUSY", FREE - 1, 8192, 2, true));
    for (int i = 0; i < 20; i++) {
      clock.advance(Duration.ofSeconds(10));
      membership.heartbeat("p1", new HeartbeatRequest("BUSY", FREE - 1, 8192, 2, true));
    }
    PeerView before = membership.peer("p1");
    store.flushSoon();
    store.close();
    clock.advance(Duration.ofSeconds(20)); // the tracker was away: no evidence against the peer
    store = TrackerStore.open(dir);
    membership = new Membership(store, clock, Duration.ofSeconds(30));

    PeerView after = membership.peer("p1");
    assertThat(after.state()).isEqualTo("BUSY");
    assertThat(after.paused()).isTrue();
    assertThat(after.freeBytes()).isEqualTo(before.freeBytes());
    assertThat(after.usedBytes()).isEqualTo(8192);
    assertThat(after.fragments()).isEqualTo(2);
    assertThat(after.lastHeartbeat()).as("a fresh timeout from the restart").isEqualTo(clock.millis());
    clock.advance(Duration.ofSeconds(31));
    assertThat(membership.peer("p1").state()).as("and DOWN once it passes without a heartbeat").isEqualTo("DOWN");
  }
}
