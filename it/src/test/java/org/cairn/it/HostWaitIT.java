package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store that meets a grid whose hosts are BUSY only for now waits for them (--host-wait) instead of
 * losing the checkpoint; a grid too small for the coding fails at once. A paused donor is BUSY to
 * placement (the tray's pause), so it stands in for a donor under load, with real processes.
 */
class HostWaitIT {
  @TempDir
  Path root;

  private MiniGrid grid;

  @AfterEach
  void stopGrid() {
    if (grid != null) {
      grid.close();
    }
  }

  /** Peers the tracker lists up, and of those, paused ones. */
  private long[] upAndPaused() throws Exception {
    long[] n = new long[2];
    for (JsonNode p : grid.peers()) {
      boolean up = !p.get("state").asText().equals("DOWN");
      n[0] += up ? 1 : 0;
      n[1] += up && p.path("paused").asBoolean() ? 1 : 0;
    }
    return n;
  }

  @Test
  void aStoreWaitsWhileADonorIsPaused_untilAHostTakesWrites_andATooSmallGridFailsAtOnce() throws Exception {
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker();
    for (int i = 0; i < 4; i++) {
      grid.startPeer("p" + i, "--id", "p" + i);
    }
    grid.startPeer("p4", "--id", "p4", "--paused");
    MiniGrid.await("5 peers up, one paused", Duration.ofSeconds(30), () -> java.util.Arrays.equals(upAndPaused(), new long[] {5, 1}));
    Path file = Files.write(root.resolve("ckpt.img"), MemoryImages.image(5, 4 * 1024 * 1024));

    // 3+2 needs five hosts; the fifth is paused: the store waits, and gives up after --host-wait
    long t0 = System.nanoTime();
    MiniGrid.Cli short_ = grid.cli("store", file.toString(), "--app", "w", "--node", "n", "--redundancy", "code:3+2", "--host-wait", "3s");
    assertThat(short_.exit()).isNotZero();
    assertThat(short_.stderr()).contains("1 more is BUSY or FULL now").contains("waiting up to 3 s").contains("waited 3 s");
    assertThat((System.nanoTime() - t0) / 1e9).as("it waited").isGreaterThanOrEqualTo(3.0);

    // through an agent the client sees the same warning (the agent's warnings of a command go to its client)
    Path socket = root.resolve("agent.sock");
    grid.startAgent("agent", socket);
    MiniGrid.Cli viaAgent = grid.viaAgent(socket, "store", file.toString(), "--app", "w", "--node", "n", "--redundancy", "code:3+2",
        "--host-wait", "2s");
    assertThat(viaAgent.exit()).isNotZero();
    assertThat(viaAgent.stderr()).contains("WARN").contains("waiting up to 2 s").contains("waited 2 s");

    // 4+2 needs six of five: no wait can help, it fails at once
    MiniGrid.Cli tooSmall = grid.cli("store", file.toString(), "--app", "w", "--node", "n", "--redundancy", "code:4+2");
    assertThat(tooSmall.exit()).isNotZero();
    assertThat(tooSmall.stderr()).contains("need 6").doesNotContain("waiting");

    // with the default wait, the store goes through once a fifth host takes writes (a new donor joins; stopping the paused
    // one and starting it again would leave it DOWN for a moment, and a shortage of DOWN hosts fails the store at once)
    MiniGrid.Node store = grid.startCli("waiting", Map.of(), "store", file.toString(), "--app", "w", "--node", "n", "--redundancy",
        "code:3+2");
    MiniGrid.await("the store waiting for hosts", Duration.ofSeconds(30), () -> store.stderr().contains("waiting up to 60 s"));
    grid.startPeer("p5", "--id", "p5");
    assertThat(store.process().waitFor(60, TimeUnit.SECONDS)).as("the store ends").isTrue();
    assertThat(store.process().exitValue()).as(store.stderr()).isZero();
    assertThat(store.stderr()).contains("placed after waiting");
    MiniGrid.Cli versions = grid.cli("versions", "--app", "w", "--node", "n", "--json");
    assertThat(versions.json()).hasSize(1);
  }
}
