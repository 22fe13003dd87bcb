package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A property over random histories (seeded): after any sequence of stores (random redundancy,
 * overlapping content across nodes), kills, restarts and repairs, {@code cairn verify} (with and
 * without {@code --read-data}) exits 0 exactly when {@code cairn fetch} of the same version succeeds,
 * and a successful fetch is byte-identical to what was stored.
 */
class RestorablePropertyIT {
  private static final String[] CODINGS = {"code:2+1", "code:3+2", "code:4+2", "replicate:2", "replicate:3"};
  private static final int PEERS = 7;

  @TempDir
  Path root;

  private MiniGrid grid;
  private final Map<Integer, MiniGrid.Node> alive = new LinkedHashMap<>();
  private final List<Integer> dead = new ArrayList<>();
  /** The bytes of each node's latest committed version. */
  private final Map<String, byte[]> latest = new LinkedHashMap<>();
  private int restorable;
  private int notRestorable;

  @AfterEach
  void stopGrid() {
    if (grid != null) {
      grid.close();
    }
  }

  @Test
  void verifyExitStatus_equalsWhetherFetchSucceeds() throws Exception {
    long seed = Long.getLong("cairn.property.seed", 1717L);
    int rounds = Integer.getInteger("cairn.property.rounds", 10);
    Random random = new Random(seed);
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker("--repair-grace", "2s", "--repair-interval", "300ms");
    for (int i = 0; i < PEERS; i++) {
      start(i);
    }
    awaitLive();
    byte[] base = MemoryImages.image(seed, 3 * 1024 * 1024);
    List<String> history = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      int action = random.nextInt(10);
      if (action < 5 || latest.isEmpty()) {
        String node = "n" + random.nextInt(3);
        String coding = CODINGS[random.nextInt(CODINGS.length)];
        byte[] image = MemoryImages.successor(base, random.nextDouble() * 0.5, random.nextLong());
        history.add("store " + node + " " + coding);
        store(node, coding, image);
      } else if (action < 8 && alive.size() > 3) {
        int victim = new ArrayList<>(alive.keySet()).get(random.nextInt(alive.size()));
        history.add("kill p" + victim);
        alive.remove(victim).kill();
        dead.add(victim);
        awaitLive();
      } else if (!dead.isEmpty()) {
        int back = dead.remove(random.nextInt(dead.size()));
        history.add("restart p" + back);
        start(back);
        awaitLive();
      } else {
        history.add("wait for repair");
        MiniGrid.await("repair queue empty", Duration.ofSeconds(60),
            () -> grid.get("/api/v1/durability").json().get("repairQueue").asInt() == 0);
      }
      String node = new ArrayList<>(latest.keySet()).get(random.nextInt(latest.size()));
      check(node, "seed " + seed + ", after " + history);
    }
    System.out.printf("%d rounds (seed %d): %d checks restorable, %d not; %s%n", rounds, seed, restorable, notRestorable, history);
    assertThat(restorable).as("the history exercised successful fetches").isPositive();
  }

  private void start(int i) throws Exception {
    alive.put(i, grid.startPeer("p" + i, "--id", "p" + i, "--gc-interval", "1s", "--gc-grace", "2s"));
  }

  private void awaitLive() throws Exception {
    MiniGrid.await(alive.size() + " peers live", Duration.ofSeconds(30), () -> {
      int live = 0;
      for (JsonNode p : grid.peers()) {
        live += p.get("state").asText().equals("DOWN") ? 0 : 1;
      }
      return live == alive.size();
    });
  }

  private void store(String node, String coding, byte[] image) throws Exception {
    Path file = Files.write(root.resolve("img-" + node), image);
    MiniGrid.Cli s = grid.cli("store", file.toString(), "--app", "prop", "--node", node, "--redundancy", coding);
    if (s.exit() == 0) {
      latest.put(node, image);
    } else {
      // too few hosts for the coding: a clean refusal, and the node's latest version is unchanged
      assertThat(s.stderr()).as("a failed store says why").isNotBlank();
    }
  }

  private void check(String node, String context) throws Exception {
    Path out = root.resolve("fetched-" + node);
    Files.deleteIfExists(out);
    grid.forgetBases(); // the property is the grid's: no chunk from this host's disk
    MiniGrid.Cli fetch = grid.cli("fetch", "--app", "prop", "--node", node, "-o", out.toString());
    boolean fetched = fetch.exit() == 0;
    if (fetched) {
      restorable++;
    } else {
      notRestorable++;
    }
    if (fetched) {
      assertThat(out).as(context).hasBinaryContent(latest.get(node));
    } else {
      assertThat(out).as(context + ": a failed fetch leaves no file").doesNotExist();
    }
    MiniGrid.Cli census = grid.cli("verify", "--app", "prop", "--node", node);
    MiniGrid.Cli read = grid.cli("verify", "--app", "prop", "--node", node, "--read-data");
    assertThat(census.exit() == 0).as(context + ": verify\n" + census.stdout() + census.stderr() + "\nfetch: " + fetch.stderr())
        .isEqualTo(fetched);
    assertThat(read.exit() == 0).as(context + ": verify --read-data\n" + read.stdout() + read.stderr() + "\nfetch: " + fetch.stderr())
        .isEqualTo(fetched);
  }
}
