package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/*
 * The churn test: 10 peers, code:4+2, a client storing a new image of a mutating process
 * every few seconds while a chaos driver SIGKILLs and restarts random peers and flips bits in stored
 * fragments on disk, never more than k = 2 faults at once (a corruption counts as a fault until its
 * repair window has passed, a restarted peer until the tracker lists it RUNNING again). Checked
 * throughout: `lost` stays 0 and the latest versions fetch byte-identical; after the chaos: every chunk healthy again within a bound, and the peers' stored
 * bytes equal what the index needs (GC leaves no orphans).
 *
 * CI runs 60 s of chaos; the long run is a benchmark: -Dcairn.churn.seconds=600 (docs/benchmarks/journal.md).
 */
class ChurnIT {
  private static final int PEERS = 10;
  private static final String[] PEER_FLAGS = {"--scrub-period", "4s", "--gc-interval", "1s", "--gc-grace", "3s"};

  @TempDir
  Path root;

  private MiniGrid grid;
  private final Map<String, MiniGrid.Node> nodes = new ConcurrentHashMap<>();

  @AfterEach
  void stop() {
    if (grid != null) {
      grid.close();
    }
  }

  private MiniGrid.Node startPeer(String id) throws Exception {
    List<String> args = new ArrayList<>(List.of("--id", id));
    args.addAll(List.of(PEER_FLAGS));
    MiniGrid.Node n = grid.startPeer(id, args.toArray(String[]::new));
    nodes.put(id, n);
    return n;
  }

  private JsonNode durability() throws Exception {
    MiniGrid.Result r = grid.get("/api/v1/durability");
    assertThat(r.status()).as(r.text()).isEqualTo(200);
    return r.json();
  }

  private long totalUsed() throws Exception {
    long total = 0;
    for (JsonNode p : grid.peers()) {
      total += p.get("usedBytes").asLong();
    }
    return total;
  }

  @Test
  void churn_losesNothing_repairsEverything_andLeavesNoOrphans() throws Exception {
    long chaosMillis = Long.getLong("cairn.churn.seconds", 60) * 1000;
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker("--repair-grace", "3s", "--repair-interval", "300ms");
    for (int i = 0; i < PEERS; i++) {
      startPeer("c" + i);
    }
    MiniGrid.await("peers RUNNING", Duration.ofSeconds(60), () -> {
      int n = 0;
      for (JsonNode p : grid.peers()) {
        n += p.get("state").asText().equals("RUNNING") ? 1 : 0;
      }
      return n == PEERS;
    });
    assertThat(grid.cli("policy", "set", "--app", "sim", "--folder", "replace").exit()).isZero();

    AtomicBoolean chaosOn = new AtomicBoolean(true);
    AtomicLong maxLost = new AtomicLong();
    AtomicInteger kills = new AtomicInteger();
    AtomicInteger corruptions = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Map<String, Long> down = new ConcurrentHashMap<>(); // peer -> when to restart it
    // restarted, but not RUNNING yet in the tracker's view: readers know only its old address (a new port here), so it is
    // still a fault (a fetch once met a restarted peer the tracker had not seen back, a corrupted one and a killed one:
    // three of a 4+2 chunk's six)
    java.util.Set<String> rejoining = ConcurrentHashMap.newKeySet();
    Thread monitor = new Thread(() -> {
      try {
        while (chaosOn.get() || !Thread.currentThread().isInterrupted()) {
          maxLost.accumulateAndGet(durability().get("lost").asLong(), Math::max);
          Thread.sleep(200);
        }
      } catch (InterruptedException e) {
        // done
      } catch (Throwable t) {
        failure.compareAndSet(null, t);
      }
    }, "durability-monitor");
    Thread chaos = new Thread(() -> {
      Random rnd = new Random(2026);
      long corruptionActiveUntil = 0;
      try {
        while (chaosOn.get()) {
          Thread.sleep(1500 + rnd.nextInt(1500));
          long now = System.currentTimeMillis();
          for (Map.Entry<String, Long> e : new HashMap<>(down).entrySet()) {
            if (e.getValue() <= now) {
              startPeer(e.getKey());
              rejoining.add(e.getKey());
              down.remove(e.getKey());
            }
          }
          if (!rejoining.isEmpty()) {
            for (JsonNode p : grid.peers()) {
              if (p.get("state").asText().equals("RUNNING")) {
                rejoining.remove(p.get("id").asText());
              }
            }
          }
          int faults = down.size() + rejoining.size() + (corruptionActiveUntil > now ? 1 : 0);
          if (faults >= 2) {
            continue;
          }
          List<String> up = new ArrayList<>();
          for (int i = 0; i < PEERS; i++) {
            if (!down.containsKey("c" + i) && !rejoining.contains("c" + i)) {
              up.add("c" + i);
            }
          }
          String victim = up.get(rnd.nextInt(up.size()));
          if (corruptionActiveUntil <= now && rnd.nextInt(10) < 3) {
            List<Path> segments;
            try (Stream<Path> s = Files.list(root.resolve(victim).resolve("fragments").resolve("segments"))) {
              segments = s.filter(p -> p.toString().endsWith(".seg") && p.toFile().length() > 4096).toList();
            }
            if (!segments.isEmpty()) {
              nodes.get(victim).kill();
              Path segment = segments.get(rnd.nextInt(segments.size()));
              long size = Files.size(segment);
              if (size > 4096) {
                RepairIT.flip(segment, size / 4 + (long) (rnd.nextDouble() * size / 2), 16);
                corruptions.incrementAndGet();
              }
              startPeer(victim);
              corruptionActiveUntil = System.currentTimeMillis() + 15_000;
              continue;
            }
          }
          nodes.get(victim).kill();
          kills.incrementAndGet();
          down.put(victim, System.currentTimeMillis() + 2000 + rnd.nextInt(6000));
        }
      } catch (InterruptedException e) {
        // done
      } catch (Throwable t) {
        failure.compareAndSet(null, t);
      }
    }, "chaos");
    monitor.start();
    chaos.start();

    // the client: a mutating process checkpointed every few seconds, two ranks
    Random rnd = new Random(7);
    byte[][] latest = new byte[2][];
    byte[] image = MemoryImages.image(11, 6 * 1024 * 1024);
    int stores = 0;
    int checks = 0;
    long start = System.currentTimeMillis();
    while (System.currentTimeMillis() - start < chaosMillis && failure.get() == null) {
      image = MemoryImages.successor(image, 0.3, rnd.nextLong());
      int rank = stores % 2;
      // rank 1 writes DMTCP images: its changed chunks are coded against the previous checkpoint's (bases under churn too)
      byte[] written = rank == 0 ? image : MemoryImages.dmtcp(new long[] {0x55dbd2c67000L, 0x7f2c6c700000L},
          java.util.Arrays.copyOf(image, image.length / 2), java.util.Arrays.copyOfRange(image, image.length / 2, image.length));
      Path file = Files.write(root.resolve("rank" + rank + ".img"), written);
      MiniGrid.Cli store = grid.cli("store", file.toString(), "--app", "sim", "--node", "rank" + rank, "--redundancy", "code:4+2");
      assertThat(store.exit()).as("store %d: %s", stores, store.stderr()).isZero();
      latest[rank] = written;
      stores++;
      if (stores % 3 == 0) {
        int other = 1 - rank;
        if (latest[other] != null) {
          Path out = root.resolve("check.img");
          grid.forgetBases(); // restarted elsewhere: bases from the churning donors
          MiniGrid.Cli fetch = grid.cli("fetch", "--app", "sim", "--node", "rank" + other, "-o", out.toString());
          assertThat(fetch.exit()).as("fetch during churn: %s", fetch.stderr()).isZero();
          assertThat(out).as("rank%d latest during churn", other).hasBinaryContent(latest[other]);
          checks++;
        }
      }
    }
    chaosOn.set(false);
    chaos.join(120_000); // not interrupted: a restart it is in the middle of must finish, or the peer would be started twice
    assertThat(chaos.isAlive()).as("chaos driver stopped").isFalse();
    for (String id : new ArrayList<>(down.keySet())) {
      startPeer(id);
    }
    long calm = System.nanoTime();
    MiniGrid.await("every chunk healthy after the chaos", Duration.ofSeconds(120), () -> {
      JsonNode d = durability();
      return d.get("healthy").asLong() == d.get("chunks").asLong() && d.get("repairQueue").asInt() == 0
          && d.get("repairing").asInt() == 0;
    });
    double toHealthy = (System.nanoTime() - calm) / 1e9;
    monitor.interrupt();
    monitor.join(10_000);
    if (failure.get() != null) {
      throw new AssertionError("chaos or monitor failed", failure.get());
    }
    for (int rank = 0; rank < 2; rank++) {
      Path out = root.resolve("final" + rank + ".img");
      grid.forgetBases();
      MiniGrid.Cli fetch = grid.cli("fetch", "--app", "sim", "--node", "rank" + rank, "-o", out.toString());
      assertThat(fetch.exit()).as(fetch.stderr()).isZero();
      assertThat(out).hasBinaryContent(latest[rank]);
    }
    long calmGc = System.nanoTime();
    MiniGrid.await("peers hold what the index needs (GC)", Duration.ofSeconds(60),
        () -> totalUsed() == durability().get("neededBytes").asLong());
    double toClean = (System.nanoTime() - calmGc) / 1e9;
    JsonNode d = durability();
    long badEvents = 0;
    for (JsonNode e : grid.get("/api/v1/events?after=0").json().get("events")) {
      badEvents += e.get("kind").asText().equals("bad-fragment") ? 1 : 0;
    }
    System.out.printf("churn: %d s of chaos, %d stores, %d mid-run fetch checks, %d kills, %d corruptions (%d bad-fragment reports), "
        + "%d bytes repaired in %d pieces, %d failed repair jobs; healthy %.1f s after the chaos stopped, GC clean %.1f s later; "
        + "max lost during the run: %d%n", chaosMillis / 1000, stores, checks, kills.get(), corruptions.get(), badEvents,
        d.get("repairedBytes").asLong(), d.get("repairedFragments").asLong(), d.get("failedRepairs").asLong(), toHealthy, toClean,
        maxLost.get());
    assertThat(maxLost.get()).as("chunks with fewer than m live pieces at any time").isZero();
    assertThat(stores).isGreaterThan(3);
    assertThat(kills.get()).isPositive();
  }
}
