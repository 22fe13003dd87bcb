package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store that lasts longer than the peers' GC grace period keeps every piece. Until the commit no
 * index entry names the pieces, so the inventory GC used to delete the store's first pieces before
 * it committed (seen on the emulated grid: a 1.1 GB store over 100 Mbit/s against a 1 min grace).
 */
class GcDuringStoreIT {
  @TempDir
  Path root;

  private MiniGrid grid;

  @BeforeEach
  void startGrid() throws Exception {
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker();
    for (int i = 0; i < 5; i++) {
      // GC every second with a 2 s grace; 512 KiB/s per peer makes the store take about 10 s
      grid.startPeer("peer" + i, "--gc-interval", "1s", "--gc-grace", "2s", "--bandwidth-cap", "512KiB");
    }
    MiniGrid.await("5 peers", Duration.ofSeconds(30), () -> grid.peers().size() == 5);
  }

  @AfterEach
  void stop() {
    grid.close();
  }

  @Test
  void aStoreLongerThanTheGcGrace_keepsAllItsPieces() throws Exception {
    byte[] image = new byte[16 * 1024 * 1024];
    new Random(11).nextBytes(image);
    Path f = Files.write(root.resolve("img"), image);
    MiniGrid.Cli store = grid.cli("store", f.toString(), "--app", "slow", "--node", "n", "--redundancy", "code:3+2", "--compression", "none",
        "--json");
    assertThat(store.exit()).as(store.stderr()).isZero();
    double seconds = store.json().get("seconds").asDouble();
    assertThat(seconds).as("the store must outlast GC interval + grace for this test to mean anything").isGreaterThan(5);
    long sent = stored(store);
    MiniGrid.await("peers to report the pieces", Duration.ofSeconds(10), () -> grid.usedOnPeers() == sent);
    // a few more GC rounds after the commit: nothing is collected, nothing is found missing
    Thread.sleep(3000); // GC runs on its own clock; there is no event to await for "nothing happened"
    assertThat(grid.usedOnPeers()).isEqualTo(sent);
    JsonNode events = grid.get("/api/v1/events").json().get("events");
    assertThat(events.toString()).doesNotContain("bad-fragment");
    JsonNode versions = grid.cli("versions", "--app", "slow", "--node", "n", "--json").json();
    assertThat(versions.get(0).get("status").asText()).isEqualTo("healthy");
    Path out = root.resolve("out");
    MiniGrid.Cli fetch = grid.cli("fetch", "--app", "slow", "--node", "n", "-o", out.toString());
    assertThat(fetch.exit()).as(fetch.stderr()).isZero();
    assertThat(out).hasBinaryContent(image);
  }

  @Test
  void aTrackerRestartDuringTheStore_isToldTheStoresChunksAgain() throws Exception {
    byte[] image = new byte[16 * 1024 * 1024];
    new Random(12).nextBytes(image);
    Path f = Files.write(root.resolve("img"), image);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      java.util.concurrent.Future<MiniGrid.Cli> store = pool.submit(() -> grid.cli("store", f.toString(), "--app", "restart", "--node", "n",
          "--redundancy", "code:3+2", "--compression", "none", "--json"));
      MiniGrid.await("the store to have sent pieces", Duration.ofSeconds(30), () -> grid.usedOnPeers() > 4 << 20 || store.isDone());
      assertThat(store.isDone()).as("the store must still be running when the tracker restarts").isFalse();
      // the restarted tracker has forgotten the store's session: the client names its chunks again
      grid.tracker().kill();
      grid.startTracker();
      MiniGrid.Cli r = store.get();
      assertThat(r.exit()).as(r.stderr()).isZero();
      long sent = stored(r);
      MiniGrid.await("peers to report the pieces", Duration.ofSeconds(20), () -> grid.usedOnPeers() == sent,
          () -> "sent " + sent + ", peers report " + grid.peers());
      Thread.sleep(3000); // a few GC rounds: nothing may be collected (there is no event for "nothing happened")
      assertThat(grid.usedOnPeers()).isEqualTo(sent);
      Path out = root.resolve("out");
      MiniGrid.Cli fetch = grid.cli("fetch", "--app", "restart", "--node", "n", "-o", out.toString());
      assertThat(fetch.exit()).as(fetch.stderr()).isZero();
      assertThat(out).hasBinaryContent(image);
    } finally {
      pool.shutdownNow();
    }
  }

  /** What a store left on the peers: its data pieces and its catalog record's. */
  private static long stored(MiniGrid.Cli store) throws java.io.IOException {
    return store.json().get("sentBytes").asLong() + store.json().get("recordBytes").asLong();
  }
}
