package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Why repair stalls, with real processes: one of six peers leaves, every code:4+2 chunk needs six distinct
 * live hosts, and the durability answer says so instead of just showing a queue that never runs.
 */
class StalledRepairIT {
  @TempDir
  Path root;

  private MiniGrid grid;
  private final Map<String, MiniGrid.Node> peers = new HashMap<>();

  @BeforeEach
  void startGrid() throws Exception {
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker("--repair-grace", "2s", "--repair-interval", "300ms");
    for (int i = 0; i < 6; i++) {
      peers.put("s" + i, grid.startPeer("s" + i, "--id", "s" + i));
    }
    MiniGrid.await("6 peers RUNNING", Duration.ofSeconds(30), () -> running() == 6);
  }

  @AfterEach
  void stopGrid() {
    grid.close();
  }

  private int running() throws Exception {
    int n = 0;
    for (JsonNode p : grid.peers()) {
      n += p.get("state").asText().equals("RUNNING") ? 1 : 0;
    }
    return n;
  }

  private JsonNode durability() throws Exception {
    MiniGrid.Result r = grid.get("/api/v1/durability");
    assertThat(r.status()).as(r.text()).isEqualTo(200);
    return r.json();
  }

  /** The stalled entry naming 6 hosts needed and 5 live, or null. */
  private JsonNode hostsEntry() throws Exception {
    for (JsonNode s : durability().get("stalled")) {
      if (s.get("reason").asText().contains("need 6 live hosts, 5 are")) {
        return s;
      }
    }
    return null;
  }

  @Test
  void gracefulLeave_of1of6_stalls4plus2Repair_withAReasonNaming6Needed5Live_untilADonorJoins() throws Exception {
    Path file = Files.write(root.resolve("ckpt.img"), MemoryImages.image(17, 2 * 1024 * 1024));
    MiniGrid.Cli store = grid.cli("store", file.toString(), "--app", "heat", "--node", "n1", "--redundancy", "code:4+2", "--json");
    assertThat(store.exit()).as(store.stderr()).isZero();
    // the version's chunks and its catalog record, which the store put after its commit (a durability scan between the
    // two counted the chunks alone: the CLI's exit is quick enough now for the test to see that scan)
    long stored = store.json().get("newChunks").asLong() + (store.json().path("recordBytes").asLong() > 0 ? 1 : 0);
    MiniGrid.await("healthy after the store, its record included", Duration.ofSeconds(30), () -> {
      JsonNode d = durability();
      return d.get("chunks").asLong() == stored && d.get("healthy").asLong() == stored;
    });
    JsonNode healthy = durability();
    assertThat(healthy.get("stalled").isArray()).as(healthy.toString()).isTrue();
    assertThat(healthy.get("stalled")).as("nothing stalled while healthy").isEmpty();
    long chunks = healthy.get("chunks").asLong();

    peers.get("s5").stop(); // SIGTERM: the peer leaves gracefully, so its pieces are due at once
    MiniGrid.await("a stalled reason naming 6 hosts needed and 5 live", Duration.ofSeconds(30), () -> hostsEntry() != null);
    JsonNode stalled = hostsEntry();
    JsonNode d = durability();
    // "5 are up" instead if a donor happens to be LOADED or BUSY at this moment
    assertThat(stalled.get("reason").asText()).startsWith("4+2 chunks need 6 live hosts, 5 are ").endsWith("(add or restart a donor)");
    assertThat(stalled.get("chunks").asLong()).isEqualTo(chunks);
    assertThat(stalled.get("kind").asText()).isEqualTo("hosts");
    assertThat(d.get("repairQueue").asLong()).isEqualTo(chunks);
    assertThat(d.get("repairing").asInt()).isZero();
    assertThat(d.get("backlogBytes").asLong()).as("s5's pieces wait to be rebuilt").isPositive();
    assertThat(d.get("etaSeconds").isNull()).as("nothing moves: no estimate").isTrue();
    assertThat(grid.get("/metrics").text()).containsPattern("cairn_repair_backlog_bytes [1-9]");
    assertThat(grid.get("/metrics").text()).contains("cairn_repair_stalled_chunks{kind=\"hosts\"} " + chunks);

    // a sixth live host unblocks repair: the reason goes away and every chunk is whole again
    // its inventory every second: a piece rebuilt onto it counts once it lists it
    peers.put("s6", grid.startPeer("s6", "--id", "s6", "--gc-interval", "1s"));
    MiniGrid.await("repaired onto the new donor", Duration.ofSeconds(60), () -> {
      JsonNode now = durability();
      return now.get("healthy").asLong() == chunks && now.get("stalled").isEmpty();
    });
    JsonNode after = durability();
    assertThat(after.get("backlogBytes").asLong()).isZero();
    assertThat(after.get("repairBytesPerSecond").asDouble()).as("the last minute's pace counts the rebuilt pieces").isPositive();
  }
}
