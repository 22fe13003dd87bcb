package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Folder policies free space on the peers through reference counts and inventory GC. */
class PolicyIT {
  @TempDir
  Path root;

  private MiniGrid grid;

  @BeforeEach
  void startGrid() throws Exception {
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker();
    for (int i = 0; i < 5; i++) {
      grid.startPeer("peer" + i, "--gc-interval", "1s", "--gc-grace", "2s");
    }
    MiniGrid.await("5 peers", Duration.ofSeconds(30), () -> grid.peers().size() == 5);
  }

  @AfterEach
  void stop() {
    grid.close();
  }

  @Test
  void replace_deletesOlderVersionsAndGcFreesTheirFragments() throws Exception {
    assertThat(grid.cli("policy", "set", "--app", "heat", "--folder", "replace").exit()).isZero();
    assertThat(grid.cli("policy", "get", "--app", "heat").stdout()).contains("heat: replace");
    byte[] v1 = MemoryImages.image(1, 16 * 1024 * 1024);
    byte[] v2 = MemoryImages.image(2, 16 * 1024 * 1024); // unrelated: none of v1's chunks survive
    Path f = root.resolve("img");
    Files.write(f, v1);
    MiniGrid.Cli s1 = grid.cli("store", f.toString(), "--app", "heat", "--node", "n", "--redundancy", "code:3+2", "--json");
    assertThat(s1.exit()).as(s1.stderr()).isZero();
    long v1Bytes = stored(s1);
    MiniGrid.await("peers to report v1's fragments", Duration.ofSeconds(10), () -> grid.usedOnPeers() == v1Bytes);
    Files.write(f, v2);
    MiniGrid.Cli s2 = grid.cli("store", f.toString(), "--app", "heat", "--node", "n", "--redundancy", "code:3+2", "--json");
    assertThat(s2.exit()).as(s2.stderr()).isZero();
    long v2Bytes = stored(s2);
    assertThat(s2.json().get("newChunks").asLong()).isEqualTo(s2.json().get("chunks").asLong());
    JsonNode versions = grid.cli("versions", "--app", "heat", "--node", "n", "--json").json();
    assertThat(versions).hasSize(1);
    assertThat(versions.get(0).get("step").asLong()).isEqualTo(2);
    // v1's fragments become garbage and are collected: the peers hold exactly what the live version needs
    MiniGrid.await("GC to free v1's fragments", Duration.ofSeconds(30), () -> grid.usedOnPeers() == v2Bytes);
    Path out = root.resolve("out");
    assertThat(grid.cli("fetch", "--app", "heat", "--node", "n", "-o", out.toString()).exit()).isZero();
    assertThat(out).hasBinaryContent(v2);
  }

  @Test
  void twoAppsStoringOneImageDifferently_eachKeepsAndReadsItsOwnPieces() throws Exception {
    // dedup is per app, so both apps send every chunk; with five pieces per chunk on five peers, each
    // peer gets a piece with the same chunk id and index from each app, made differently. Keyed by chunk
    // and index alone, the second app's pieces used to replace the first's on the peers.
    byte[] image = MemoryImages.image(3, 8 * 1024 * 1024);
    Path f = root.resolve("img");
    Files.write(f, image);
    MiniGrid.Cli zip = grid.cli("store", f.toString(), "--app", "zip", "--node", "n", "--redundancy", "code:3+2", "--compression", "zstd:3", "--json");
    assertThat(zip.exit()).as(zip.stderr()).isZero();
    MiniGrid.Cli raw = grid.cli("store", f.toString(), "--app", "raw", "--node", "n", "--redundancy", "code:2+3", "--compression", "none", "--json");
    assertThat(raw.exit()).as(raw.stderr()).isZero();
    long zipBytes = stored(zip);
    long rawBytes = stored(raw);
    MiniGrid.await("peers to hold both apps' pieces", Duration.ofSeconds(10), () -> grid.usedOnPeers() == zipBytes + rawBytes);
    for (String app : new String[] {"zip", "raw"}) {
      Path out = root.resolve(app + ".out");
      MiniGrid.Cli fetch = grid.cli("fetch", "--app", app, "--node", "n", "-o", out.toString());
      assertThat(fetch.exit()).as(fetch.stderr()).isZero();
      assertThat(out).hasBinaryContent(image);
    }
    // deleting one app's version frees its pieces only
    assertThat(grid.cli("rm", "--app", "raw", "--node", "n", "--step", "1").exit()).isZero();
    MiniGrid.await("GC to free raw's pieces", Duration.ofSeconds(30), () -> grid.usedOnPeers() == zipBytes);
    Path out = root.resolve("zip2.out");
    assertThat(grid.cli("fetch", "--app", "zip", "--node", "n", "-o", out.toString()).exit()).isZero();
    assertThat(out).hasBinaryContent(image);
  }

  @Test
  void purgeAfter_deletesExpiredVersionsButKeepsTheLatest() throws Exception {
    Path f = root.resolve("img");
    for (int step = 0; step < 3; step++) {
      Files.write(f, MemoryImages.image(10 + step, 4 * 1024 * 1024));
      assertThat(grid.cli("store", f.toString(), "--app", "sim", "--node", "n", "--redundancy", "replicate:2").exit()).isZero();
    }
    assertThat(grid.cli("policy", "set", "--app", "sim", "--folder", "purge-after=1s").exit()).isZero();
    assertThat(grid.cli("policy", "set", "--app", "sim", "--folder", "purge-later").exit()).isEqualTo(1);
    MiniGrid.await("purge of the two older versions", Duration.ofSeconds(30),
        () -> grid.cli("versions", "--app", "sim", "--node", "n", "--json").json().size() == 1);
    assertThat(grid.cli("versions", "--app", "sim", "--node", "n", "--json").json().get(0).get("step").asLong()).isEqualTo(3);
  }

  /** What a store left on the peers: its data pieces and its catalog record's. */
  private static long stored(MiniGrid.Cli store) throws java.io.IOException {
    return store.json().get("sentBytes").asLong() + store.json().get("recordBytes").asLong();
  }
}
