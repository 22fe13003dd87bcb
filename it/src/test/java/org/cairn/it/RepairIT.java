package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Durability with real processes: repair after a death, scrubbing finds corruption, optimistic writes complete, verify. */
class RepairIT {
  @TempDir
  Path root;

  private MiniGrid grid;
  private final Map<String, MiniGrid.Node> peers = new HashMap<>();
  private byte[] image;
  private Path file;

  static final String[] PEER_FLAGS = {"--scrub-period", "3s", "--gc-interval", "1s", "--gc-grace", "2s"};

  @BeforeEach
  void startGrid() throws Exception {
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker("--repair-grace", "2s", "--repair-interval", "300ms");
    for (int i = 0; i < 7; i++) {
      startPeer("p" + i);
    }
    MiniGrid.await("7 peers RUNNING", Duration.ofSeconds(30), () -> running() == 7);
    image = MemoryImages.image(5, 10 * 1024 * 1024);
    file = Files.write(root.resolve("ckpt.img"), image);
  }

  @AfterEach
  void stopGrid() {
    grid.close();
  }

  private void startPeer(String id) throws Exception {
    List<String> args = new ArrayList<>(List.of("--id", id));
    args.addAll(List.of(PEER_FLAGS));
    peers.put(id, grid.startPeer(id, args.toArray(String[]::new)));
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

  private boolean allHealthy() throws Exception {
    JsonNode d = durability();
    return d.get("chunks").asLong() > 0 && d.get("healthy").asLong() == d.get("chunks").asLong()
        && d.get("repairQueue").asInt() == 0 && d.get("repairing").asInt() == 0;
  }

  private List<String> holdersOfFirstChunk() throws Exception {
    // /manifest: {"manifest":{...},"chunks":{id:{"id","redundancy","holders":[holder or null per piece]}}}
    JsonNode holders = grid.get("/api/v1/manifest?app=heat&node=n1").json().get("chunks").elements().next().get("holders");
    List<String> out = new ArrayList<>();
    holders.forEach(h -> out.add(h.isNull() ? null : h.get("id").asText()));
    return out;
  }

  private long usedBytes(String peer) throws Exception {
    for (JsonNode p : grid.peers()) {
      if (p.get("id").asText().equals(peer)) {
        return p.get("usedBytes").asLong();
      }
    }
    throw new AssertionError("no peer " + peer);
  }

  private long totalUsed() throws Exception {
    long total = 0;
    for (JsonNode p : grid.peers()) {
      total += p.get("usedBytes").asLong();
    }
    return total;
  }

  private void fetchMatches() throws Exception {
    Path out = root.resolve("out.img");
    grid.forgetBases(); // every chunk from the donors (a fetch finds what this host stored on its disk)
    MiniGrid.Cli fetch = grid.cli("fetch", "--app", "heat", "--node", "n1", "-o", out.toString(), "--json");
    assertThat(fetch.exit()).as(fetch.stderr()).isZero();
    assertThat(out).hasBinaryContent(image);
    assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(fetch.stdout()).get("chunksFromThisHost").asInt())
        .as("chunks read from this host's disk").isZero();
  }

  @Test
  void deadPeer_isRepairedElsewhere_andItsCopiesBecomeGarbageWhenItReturns() throws Exception {
    MiniGrid.Cli store = grid.cli("store", file.toString(), "--app", "heat", "--node", "n1", "--redundancy", "code:4+2");
    assertThat(store.exit()).as(store.stderr()).isZero();
    MiniGrid.await("healthy after the store", Duration.ofSeconds(10), this::allHealthy);
    MiniGrid.await("heartbeats report the stored bytes", Duration.ofSeconds(10), () -> totalUsed() == durability().get("neededBytes").asLong());
    String victim = holdersOfFirstChunk().get(0);
    long held = usedBytes(victim);
    assertThat(held).isPositive();

    peers.get(victim).kill();
    MiniGrid.await("degraded", Duration.ofSeconds(10), () -> durability().get("degraded").asLong() > 0);
    long died = System.nanoTime();
    MiniGrid.await("repaired", Duration.ofSeconds(60), this::allHealthy);
    System.out.printf("repair: %d bytes of a dead peer rebuilt %.1f s after it was declared DOWN (grace 2 s)%n", held,
        (System.nanoTime() - died) / 1e9);
    JsonNode d = durability();
    assertThat(d.get("lost").asLong()).isZero();
    assertThat(d.get("repairedBytes").asLong()).isEqualTo(held);
    assertThat(holdersOfFirstChunk()).doesNotContain(victim).doesNotContainNull();
    // the executors' heartbeats report what their repairs read and sent: at least m pieces read per piece rebuilt
    MiniGrid.await("repair traffic reported", Duration.ofSeconds(10), () -> {
      long repairTraffic = 0;
      for (JsonNode p : grid.peers()) {
        repairTraffic += p.path("traffic").path("repairLastDay").asLong();
      }
      return repairTraffic >= held;
    });
    MiniGrid.Cli verify = grid.cli("verify", "--app", "heat", "--node", "n1", "--read-data");
    assertThat(verify.exit()).as(verify.stdout() + verify.stderr()).isZero();
    assertThat(verify.stdout()).contains("restorable").contains("0 bad");
    fetchMatches();

    // the peer returns: what it held was rebuilt elsewhere, so its copies are garbage and GC frees them
    startPeer(victim);
    MiniGrid.await(victim + " empty after GC", Duration.ofSeconds(30), () -> usedBytes(victim) == 0);
    MiniGrid.await("peers hold exactly what the index needs", Duration.ofSeconds(10),
        () -> totalUsed() == durability().get("neededBytes").asLong());
  }

  @Test
  void corruptFragment_isFoundByScrubbing_reported_andRebuilt() throws Exception {
    MiniGrid.Cli store = grid.cli("store", file.toString(), "--app", "heat", "--node", "n1", "--redundancy", "code:4+2");
    assertThat(store.exit()).as(store.stderr()).isZero();
    String victim = holdersOfFirstChunk().get(1);
    // the pieces' bytes are in the peer's segment files: flip bits in them on disk
    peers.get(victim).kill();
    List<Path> segments;
    try (Stream<Path> s = Files.list(root.resolve(victim).resolve("fragments").resolve("segments"))) {
      segments = s.filter(p -> p.toString().endsWith(".seg") && p.toFile().length() > 0).toList();
    }
    assertThat(segments).isNotEmpty();
    for (Path b : segments) {
      flip(b, Files.size(b) / 2, 16);
    }
    startPeer(victim);
    MiniGrid.await("a bad-fragment event", Duration.ofSeconds(30), () -> grid.get("/api/v1/events").text().contains("bad-fragment"));
    // the durability answer is the last scan's: healthy may still be read before the bad pieces were counted lost
    MiniGrid.await("the bad pieces rebuilt", Duration.ofSeconds(60),
        () -> durability().get("repairedFragments").asLong() > 0 && allHealthy());
    assertThat(peers.get(victim).stderr()).doesNotContain("Exception in thread");
    fetchMatches();
    MiniGrid.Cli verify = grid.cli("verify", "--app", "heat", "--node", "n1", "--read-data", "--json");
    assertThat(verify.exit()).as(verify.stdout() + verify.stderr()).isZero();
    assertThat(verify.json().get(0).get("piecesBad").asLong()).isZero();
  }

  @Test
  void optimisticWrite_sendsMPieces_andTheTrackerCompletesTheRest() throws Exception {
    MiniGrid.Cli store = grid.cli("store", file.toString(), "--app", "heat", "--node", "n1", "--redundancy", "code:4+2",
        "--write", "optimistic", "--json");
    assertThat(store.exit()).as(store.stderr()).isZero();
    JsonNode r = store.json();
    // only the 4 data pieces of 6 went over the client's link
    long full = grid.cli("versions", "--app", "heat", "--node", "n1", "--json").json().get(0).get("storedBytes").asLong();
    assertThat(r.get("sentBytes").asLong()).isEqualTo(full * 4 / 6);
    MiniGrid.await("completed by repair", Duration.ofSeconds(60), this::allHealthy);
    assertThat(grid.cli("versions", "--app", "heat", "--node", "n1", "--json").json().get(0).get("status").asText())
        .isEqualTo("healthy");
    assertThat(holdersOfFirstChunk()).doesNotContainNull().doesNotHaveDuplicates();
    fetchMatches();
  }

  /**
   * Two holders of a 3+2 version cut off from the tracker but still serving (back on their addresses and data,
   * heartbeating to no tracker) and a third gone: fewer than m live holders, so the tracker counts the chunks lost. Repair
   * reads them from the holders it lists DOWN, as a fetch would, and rebuilds their pieces on live peers; then the version
   * survives the loss of those holders.
   */
  @Test
  void aChunkFewerThanMLivePeersHold_isRebuiltFromHoldersListedDown_whileTheyStillAnswer() throws Exception {
    MiniGrid.Cli store = grid.cli("store", file.toString(), "--app", "heat", "--node", "n1", "--redundancy", "code:3+2");
    assertThat(store.exit()).as(store.stderr()).isZero();
    MiniGrid.await("healthy after the store", Duration.ofSeconds(10), this::allHealthy);
    List<String> holders = holdersOfFirstChunk();
    List<String> cutOff = holders.subList(0, 2);
    Map<String, String> addresses = new HashMap<>();
    for (String h : holders.subList(0, 3)) {
      addresses.put(h, peers.get(h).address());
      peers.get(h).kill();
    }
    for (String h : cutOff) {
      peers.put(h, grid.startPeer(h, "--id", h, "--listen", addresses.get(h), "--tracker", "https://127.0.0.1:9"));
    }
    MiniGrid.await("lost to the tracker", Duration.ofSeconds(15), () -> durability().get("lost").asLong() > 0);
    MiniGrid.await("no chunk lost: rebuilt from the holders listed DOWN", Duration.ofSeconds(60),
        () -> durability().get("lost").asLong() == 0);
    // no chunk lost needs m live holders only; repair goes on until every live peer holds a piece: four live peers
    // (seven less the three taken away) for five pieces, so one piece may stay with a cut-off holder, but never more;
    // a job a peer claimed and never answered is handed out again after the tracker's two minutes, hence the wait
    long livePeers = peers.size() - holders.subList(0, 3).size();
    MiniGrid.await("every live peer holds a piece of the chunk", Duration.ofSeconds(150),
        () -> holdersOfFirstChunk().stream().filter(h -> h != null && !holders.subList(0, 3).contains(h)).count() >= livePeers,
        () -> String.valueOf(holdersOfFirstChunk()));
    assertThat(holdersOfFirstChunk().stream().filter(cutOff::contains).count()).isLessThanOrEqualTo(5 - livePeers);
    for (String h : cutOff) {
      peers.get(h).kill();
    }
    fetchMatches();
  }

  @Test
  void verify_failsWithAMessageWhenFewerThanMPiecesLive() throws Exception {
    MiniGrid.Cli store = grid.cli("store", file.toString(), "--app", "heat", "--node", "n1", "--redundancy", "replicate:2");
    assertThat(store.exit()).as(store.stderr()).isZero();
    assertThat(grid.cli("verify", "--app", "heat", "--node", "n1").exit()).isZero();
    for (String h : holdersOfFirstChunk()) {
      peers.get(h).kill();
    }
    MiniGrid.await("lost", Duration.ofSeconds(15), () -> durability().get("lost").asLong() > 0);
    MiniGrid.Cli verify = grid.cli("verify", "--app", "heat", "--node", "n1", "--read-data");
    assertThat(verify.exit()).isEqualTo(1);
    assertThat(verify.stdout()).contains("NOT RESTORABLE");
    assertThat(verify.stderr()).contains("fewer than m good pieces");
    assertThat(durability().get("latest").get(0).get("restorable").asBoolean()).isFalse();
  }

  static void flip(Path file, long offset, int n) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      byte[] b = new byte[n];
      f.seek(offset);
      f.readFully(b);
      for (int i = 0; i < n; i++) {
        b[i] ^= (byte) 0xFF;
      }
      f.seek(offset);
      f.write(b);
      f.getFD().sync();
    }
  }
}
