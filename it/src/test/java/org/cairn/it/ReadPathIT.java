package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read-path failures as regression tests, with real processes: fetch and verify read a chunk the
 * same way (its own m, not the version's), dedup never weakens the coding a store asked for, and
 * verify over an app checks every node. Repair is held off (long grace) so kills stay kills.
 */
class ReadPathIT {
  @TempDir
  Path root;

  private MiniGrid grid;
  private final List<MiniGrid.Node> peers = new ArrayList<>();
  private Path file;
  private byte[] image;

  @BeforeEach
  void startGrid() throws Exception {
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker("--repair-grace", "10m");
    for (int i = 0; i < 6; i++) {
      peers.add(grid.startPeer("p" + i, "--id", "p" + i));
    }
    MiniGrid.await("6 peers RUNNING", Duration.ofSeconds(30), () -> live() == 6);
    image = MemoryImages.image(17, 6 * 1024 * 1024);
    file = Files.write(root.resolve("ckpt.img"), image);
  }

  @AfterEach
  void stopGrid() {
    grid.close();
  }

  private int live() throws Exception {
    int n = 0;
    for (JsonNode p : grid.peers()) {
      n += p.get("state").asText().equals("DOWN") ? 0 : 1;
    }
    return n;
  }

  private void kill(int i, int liveAfter) throws Exception {
    peers.get(i).kill();
    MiniGrid.await("p" + i + " DOWN", Duration.ofSeconds(30), () -> live() == liveAfter);
  }

  private MiniGrid.Cli store(String node, String redundancy) throws Exception {
    MiniGrid.Cli s = grid.cli("store", file.toString(), "--app", "x", "--node", node, "--redundancy", redundancy, "--json");
    assertThat(s.exit()).as(s.stderr()).isZero();
    return s;
  }

  /** Fetches node's latest; asserts byte identity when it succeeds. Returns whether it did. */
  private boolean fetches(String node) throws Exception {
    Path out = root.resolve("out-" + node + ".img");
    Files.deleteIfExists(out);
    MiniGrid.Cli f = grid.cli("fetch", "--app", "x", "--node", node, "-o", out.toString());
    if (f.exit() == 0) {
      assertThat(out).hasBinaryContent(image);
      return true;
    }
    assertThat(out).as("a failed fetch leaves no file under the final name").doesNotExist();
    return false;
  }

  private boolean verifies(String node, boolean readData) throws Exception {
    List<String> args = new ArrayList<>(List.of("verify", "--app", "x", "--node", node, "--json"));
    if (readData) {
      args.add("--read-data");
    }
    MiniGrid.Cli v = grid.cli(args.toArray(String[]::new));
    JsonNode report = v.json().get(0);
    assertThat(v.exit() == 0).as("exit status matches the report: " + v.stdout() + v.stderr())
        .isEqualTo(report.get("restorable").asBoolean());
    return v.exit() == 0;
  }

  private JsonNode latestVersion(String node) throws Exception {
    MiniGrid.Cli v = grid.cli("versions", "--app", "x", "--node", node, "--json");
    assertThat(v.exit()).as(v.stderr()).isZero();
    JsonNode rows = v.json();
    return rows.get(rows.size() - 1);
  }

  @Test
  void dedupedVersion_isReadWithTheChunksOwnCoding_andFetchAgreesWithVerify() throws Exception {
    store("a", "code:4+2");
    JsonNode b = grid.cli("store", file.toString(), "--app", "x", "--node", "b", "--json").json(); // default code:3+2
    assertThat(b.get("newChunks").asLong()).as("every chunk deduplicated").isZero();
    // the version's coding is what its chunks really have (4+2 protects as much as the 3+2 asked for)
    assertThat(latestVersion("b").get("redundancy").asText()).isEqualTo("code:4+2");

    for (int killed = 1; killed <= 3; killed++) {
      kill(killed - 1, 6 - killed);
      boolean fetched = fetches("b");
      assertThat(verifies("b", true)).as("verify --read-data with %d holders dead", killed).isEqualTo(fetched);
      assertThat(verifies("b", false)).as("verify with %d holders dead", killed).isEqualTo(fetched);
      // 4+2: any 4 of 6 rebuild a chunk
      assertThat(fetched).as("fetch with %d of 6 holders dead", killed).isEqualTo(killed <= 2);
    }
  }

  @Test
  void dedupNeverWeakens_aStoreAskingForMoreParityRecodesWeakerChunks() throws Exception {
    store("weak", "code:2+1");
    assertThat(latestVersion("weak").get("redundancy").asText()).isEqualTo("code:2+1");
    store("strong", "code:4+2");
    JsonNode strong = latestVersion("strong");
    assertThat(strong.get("redundancy").asText()).isEqualTo("code:4+2");
    assertThat(strong.has("weakest")).as(strong.toString()).isFalse();

    // two holders dead: a 2+1 chunk could be gone, the 4+2 version must still be whole
    kill(0, 5);
    kill(1, 4);
    assertThat(verifies("strong", true)).isTrue();
    assertThat(fetches("strong")).isTrue();
  }

  @Test
  void verifyWithoutNode_checksEveryNodeOfTheApp() throws Exception {
    store("n1", "code:4+2");
    store("n2", "code:3+2");
    Files.write(file, MemoryImages.successor(image, 0.2, 3));
    image = Files.readAllBytes(file);
    store("n3", "replicate:2");
    kill(5, 5); // a closed connection in the pool must not fail the nodes checked after it

    for (boolean readData : new boolean[] {true, false}) {
      MiniGrid.Cli v = readData ? grid.cli("verify", "--app", "x", "--json", "--read-data") : grid.cli("verify", "--app", "x", "--json");
      assertThat(v.exit()).as(v.stdout() + v.stderr()).isZero();
      JsonNode reports = v.json();
      List<String> nodes = new ArrayList<>();
      for (JsonNode r : reports) {
        nodes.add(r.get("node").asText());
        assertThat(r.get("restorable").asBoolean()).as(r.toString()).isTrue();
      }
      assertThat(nodes).containsExactlyInAnyOrder("n1", "n2", "n3");
    }
    MiniGrid.Cli plain = grid.cli("verify", "--app", "x");
    assertThat(plain.exit()).as(plain.stdout() + plain.stderr()).isZero();
  }

  @Test
  void aHolderTheTrackerStillListsDown_isAskedWhenTheLiveOnesCannotGiveM() throws Exception {
    store("back", "code:4+2");
    String address = peers.get(2).address();
    kill(2, 5);
    // back on its old address and its own data (TLS with its stored certificate), but heartbeating to no tracker: the tracker
    // lists it DOWN for good
    peers.set(2, grid.startPeer("p2", "--id", "p2", "--listen", address, "--tracker", "https://127.0.0.1:9"));
    kill(0, 4);
    kill(1, 3);
    assertThat(grid.stateOf("p2")).isEqualTo("DOWN");
    // three live holders of a 4+2 chunk: the fourth piece comes from the holder listed DOWN
    assertThat(fetches("back")).isTrue();
    // verify agrees, with and without reading the pieces
    assertThat(verifies("back", true)).isTrue();
    assertThat(verifies("back", false)).isTrue();

    peers.get(2).kill();
    assertThat(fetches("back")).as("really down: three pieces of four").isFalse();
    assertThat(verifies("back", true)).isFalse();
    assertThat(verifies("back", false)).isFalse();
  }

  @Test
  void aFetchOntoAFullDisk_namesTheFile_andLeavesNothingThere() throws Exception {
    // a 1 MiB file system (tmpfs; root only) cannot take the 6 MiB image
    org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "mounting a tmpfs needs root");
    store("full", "code:3+2");
    Path small = Files.createDirectories(root.resolve("small"));
    assertThat(new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", small.toString()).inheritIO().start().waitFor())
        .isZero();
    try {
      Path out = small.resolve("ckpt.img");
      MiniGrid.Cli f = grid.cli("fetch", "--app", "x", "--node", "full", "-o", out.toString());
      assertThat(f.exit()).isEqualTo(1);
      assertThat(f.stderr()).contains("writing " + out + ": No space left on device");
      try (java.util.stream.Stream<Path> left = Files.list(small)) {
        assertThat(left).as("no file under the final name, no partial file").isEmpty();
      }
    } finally {
      new ProcessBuilder("umount", small.toString()).inheritIO().start().waitFor();
    }
  }
}
