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
import org.apache.commons.io.file.PathUtils;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The catalog rebuilt from the grid. Stores put each version's sealed catalog record on the
 * peers; with the tracker's data directory deleted, {@code cairn-tracker recover --from-peers} and a
 * kit made before any version existed (so nothing of the catalog can come from it) rebuild every
 * version, which then fetches byte-identical; the peers rejoin by themselves, and their garbage
 * collection finds nothing to delete. On a plain grid with one shared token, and on a grid with roles and
 * TLS on both planes (recovery then speaks TLS to the peers with the kit's CA).
 */
class RecoverFromPeersIT {
  private static final Duration GC_HOLD = Duration.ofSeconds(5);

  @TempDir
  Path root;

  private MiniGrid grid;

  @AfterEach
  void stop() {
    if (grid != null) {
      grid.close();
    }
  }

  /**
   * @param tls a grid with roles and TLS on both planes (donors join with a donor token, so their
   *     credentials are issued before the kit is made; TLS is the default); otherwise one shared token, plain TCP
   *     ({@code --insecure-plain-http})
   */
  @ParameterizedTest(name = "tls={0}")
  @ValueSource(booleans = {false, true})
  void everyVersion_comesBackFromThePeers_afterTheTrackerDirectoryIsGone(boolean tls) throws Exception {
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    String[] trackerArgs = tls ? new String[] {"--gc-hold", GC_HOLD.toSeconds() + "s"}
        : new String[] {"--gc-hold", GC_HOLD.toSeconds() + "s", "--insecure-plain-http"};
    String[] donor = {};
    if (tls) {
      grid.startTrackerWithRoles(trackerArgs);
      MiniGrid.Cli made = grid.trackerCommand("token", "create", "--data", grid.trackerData().toString(), "--role", "donor",
          "--uses", "6");
      assertThat(made.exit()).as(made.stderr()).isZero();
      donor = new String[] {"--token-file", Files.writeString(root.resolve("donor.token"), made.stdout()).toString()};
    } else {
      grid.startTracker(trackerArgs);
    }
    List<MiniGrid.Node> peers = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      // not a test of load states: the disk load of ITs running beside it must not make every peer BUSY (it did: "need 5
      // storage hosts that are RUNNING or LOADED ... have 0 of 6 known"), so only a device busy all the time does
      List<String> args = new ArrayList<>(List.of("--gc-interval", "1s", "--gc-grace", "2s", "--tau1", "0.99", "--tau2", "1"));
      args.addAll(List.of(donor));
      peers.add(grid.startPeer("peer" + i, args.toArray(new String[0])));
    }
    MiniGrid.await("6 peers", Duration.ofSeconds(30), () -> grid.peers().size() == 6);
    // the operator's kit: a backup taken before anything was stored
    Path kit = root.resolve("kit");
    MiniGrid.Cli backup = grid.trackerCommand("backup", "--to", kit.toString(), "--tracker", grid.trackerUrl(), "--token-file",
        grid.tokenFile().toString());
    assertThat(backup.exit()).as(backup.stderr()).isZero();
    assertThat(kit.resolve("catalog.key")).exists();

    byte[] first = MemoryImages.image(21, 6 << 20);
    byte[] second = first.clone();
    for (int i = 0; i < second.length / 3; i += 7) { // the first third changes, the rest dedups
      second[i] ^= 0x5A;
    }
    Map<String, byte[]> images = new LinkedHashMap<>();
    images.put("heat/n1/1", first);
    images.put("heat/n1/2", second);
    images.put("heat/n2/1", MemoryImages.image(22, 3 << 20));
    images.put("wave/n1/1", MemoryImages.image(23, 2 << 20));
    long stored = 0;
    for (Map.Entry<String, byte[]> e : images.entrySet()) {
      String[] v = e.getKey().split("/");
      Path f = root.resolve("img-" + e.getKey().replace('/', '-'));
      Files.write(f, e.getValue());
      MiniGrid.Cli s = grid.cli("store", f.toString(), "--app", v[0], "--node", v[1], "--redundancy",
          v[0].equals("wave") ? "replicate:3" : "code:3+2", "--json");
      assertThat(s.exit()).as(s.stderr()).isZero();
      assertThat(s.json().get("step").asLong()).isEqualTo(Long.parseLong(v[2]));
      assertThat(s.json().get("recordBytes").asLong()).as("the store put its catalog record on the grid").isPositive();
      stored += s.json().get("sentBytes").asLong() + s.json().get("recordBytes").asLong();
    }
    long onPeers = stored;
    MiniGrid.await("peers to report every piece", Duration.ofSeconds(20), () -> grid.usedOnPeers() == onPeers);
    Map<String, String> versionsBefore = new LinkedHashMap<>();
    for (String node : List.of("heat/n1", "heat/n2", "wave/n1")) {
      versionsBefore.put(node, listing(node));
    }

    // every tracker disk is gone
    grid.tracker().kill();
    PathUtils.deleteDirectory(grid.trackerData());
    List<String> addresses = peers.stream().map(MiniGrid.Node::address).toList();
    MiniGrid.Cli recover = grid.trackerCommand("recover", "--from-peers", String.join(",", addresses), "--kit", kit.toString(),
        "--data", grid.trackerData().toString(), "--json");
    assertThat(recover.exit()).as(recover.stdout() + recover.stderr()).isZero();
    JsonNode r = recover.json();
    assertThat(r.get("peers").size()).isEqualTo(6);
    assertThat(r.get("recordsFound").asInt()).isEqualTo(4);
    assertThat(r.get("catalog").get("versions").asInt()).isEqualTo(4);
    assertThat(r.get("catalog").get("piecesMissing").asLong()).isZero();
    assertThat(r.get("problems")).isEmpty();
    // recovering into a directory that is not empty is refused, and changes nothing there
    MiniGrid.Cli again = grid.trackerCommand("recover", "--from-peers", addresses.get(0), "--kit", kit.toString(), "--data",
        grid.trackerData().toString());
    assertThat(again.exit()).isEqualTo(2);
    assertThat(again.stderr()).contains("is not empty");

    if (tls) {
      grid.startTrackerWithRoles(trackerArgs);
    } else {
      grid.startTracker(trackerArgs);
    }
    MiniGrid.await("the peers to rejoin", Duration.ofSeconds(30), () -> {
      JsonNode ps = grid.peers();
      int running = 0;
      for (JsonNode p : ps) {
        running += p.get("state").asText().equalsIgnoreCase("running") ? 1 : 0;
      }
      return running == 6;
    });
    for (Map.Entry<String, String> e : versionsBefore.entrySet()) {
      assertThat(listing(e.getKey())).as("versions of " + e.getKey()).isEqualTo(e.getValue());
    }
    fetchAll(images);
    // an operator's check, as run, without flags: every app's every node's latest version is restorable
    MiniGrid.Cli verify = grid.cli("verify");
    assertThat(verify.exit()).as(verify.stdout() + verify.stderr()).isZero();
    assertThat(verify.stdout().lines().filter(l -> l.contains(": restorable"))).hasSize(3);
    // the peers' GC asks the rebuilt catalog about every piece once its hold after the restart is over:
    // every piece, data and records, is still needed (there is no event for "nothing was deleted")
    Thread.sleep(GC_HOLD.toMillis() + 5_000);
    assertThat(grid.usedOnPeers()).isEqualTo(onPeers);
    fetchAll(images);
    // the rebuilt chunk index deduplicates the next store, and it gets a record of its own
    Path f = root.resolve("img-next");
    Files.write(f, second);
    MiniGrid.Cli next = grid.cli("store", f.toString(), "--app", "heat", "--node", "n1", "--redundancy", "code:3+2", "--json");
    assertThat(next.exit()).as(next.stderr()).isZero();
    assertThat(next.json().get("step").asLong()).isEqualTo(3);
    assertThat(next.json().get("newChunks").asLong()).isZero();
    assertThat(next.json().get("recordBytes").asLong()).as("the next store's catalog record: " + next.stderr()).isPositive();
  }

  /** The versions of app/node as {@code versions --json} lists them: step, size and kind (what recovery must keep). */
  private String listing(String appNode) throws Exception {
    String[] v = appNode.split("/");
    MiniGrid.Cli c = grid.cli("versions", "--app", v[0], "--node", v[1], "--json");
    assertThat(c.exit()).as(c.stderr()).isZero();
    StringBuilder sb = new StringBuilder();
    for (JsonNode row : c.json()) {
      sb.append(row.get("step").asLong()).append(':').append(row.get("size").asLong()).append(':').append(row.path("kind").asText())
          .append(' ');
    }
    return sb.toString();
  }

  private void fetchAll(Map<String, byte[]> images) throws Exception {
    for (Map.Entry<String, byte[]> e : images.entrySet()) {
      String[] v = e.getKey().split("/");
      Path out = root.resolve("out-" + e.getKey().replace('/', '-'));
      Files.deleteIfExists(out);
      MiniGrid.Cli fetch = grid.cli("fetch", "--app", v[0], "--node", v[1], "--step", v[2], "-o", out.toString());
      assertThat(fetch.exit()).as(e.getKey() + ": " + fetch.stderr()).isZero();
      assertThat(out).as(e.getKey()).hasBinaryContent(e.getValue());
    }
  }
}
