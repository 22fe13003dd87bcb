package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soft write level with real processes: {@code cairn store --write soft} returns once every
 * piece is in its peer's memory; {@code versions --json} says {@code "status": "soft"} until the
 * peers report them durable, then healthy. A peer SIGKILLed before it made its soft pieces durable
 * comes back with a new boot id: the tracker counts those pieces lost, repair makes them again, and
 * the version fetches whole.
 */
class SoftWriteIT {
  @TempDir
  Path root;

  @Test
  void softPiecesBecomeDurable_andThoseOfAPeerKilledFirstAreRepaired() throws Exception {
    try (MiniGrid grid = new MiniGrid(root, Duration.ofMillis(500))) {
      grid.startTracker("--repair-grace", "1s", "--repair-interval", "300ms");
      Map<String, MiniGrid.Node> peers = new HashMap<>();
      for (int i = 0; i < 6; i++) {
        String id = "p" + i;
        // p0 would make its soft writes durable only after an hour: it is killed long before
        peers.put(id, grid.startPeer(id, "--id", id, "--gc-interval", "1s", "--gc-grace", "2s",
            "--soft-sync-interval", i == 0 ? "1h" : "200ms"));
      }
      MiniGrid.await("6 peers RUNNING", Duration.ofSeconds(30), () -> grid.peers().size() == 6);
      byte[] image = MemoryImages.image(7, 6 * 1024 * 1024);
      Path file = Files.write(root.resolve("ckpt.img"), image);

      MiniGrid.Cli store = grid.cli("store", file.toString(), "--app", "heat", "--node", "n1", "--redundancy", "code:4+2",
          "--write", "soft", "--json");
      assertThat(store.exit()).as(store.stderr()).isZero();
      assertThat(store.json().get("write").asText()).isEqualTo("soft");
      assertThat(status(grid)).as("p0 has not made its pieces durable").isEqualTo("soft");

      peers.get("p0").kill();
      peers.put("p0", grid.startPeer("p0b", "--id", "p0", "--data", root.resolve("p0").toString(), "--gc-interval", "1s",
          "--gc-grace", "2s"));
      MiniGrid.await("the version healthy after repair of p0's lost soft pieces", Duration.ofMinutes(2),
          () -> status(grid).equals("healthy"), () -> status(grid));
      assertThat(grid.tracker().stderr() + grid.tracker().stdout())
          .contains("restarted (boot").contains("before making its soft pieces durable");

      Path out = root.resolve("restored.img");
      grid.forgetBases(); // every chunk from the donors (a fetch finds what this host stored on its disk)
      MiniGrid.Cli fetch = grid.cli("fetch", "--app", "heat", "--node", "n1", "-o", out.toString());
      assertThat(fetch.exit()).as(fetch.stderr()).isZero();
      assertThat(Files.readAllBytes(out)).isEqualTo(image);
      MiniGrid.Cli verify = grid.cli("verify", "--app", "heat");
      assertThat(verify.exit()).as(verify.stdout() + verify.stderr()).isZero();

      // without a crash, soft pieces become durable on their own: soft, then healthy, with no repair
      MiniGrid.Cli second = grid.cli("store", file.toString(), "--app", "cool", "--node", "n1", "--redundancy", "code:4+2",
          "--write", "soft");
      assertThat(second.exit()).as(second.stderr()).isZero();
      MiniGrid.await("the second version durable", Duration.ofSeconds(30), () -> status(grid, "cool").equals("healthy"),
          () -> status(grid, "cool"));
    }
  }

  private static String status(MiniGrid grid) throws Exception {
    return status(grid, "heat");
  }

  private static String status(MiniGrid grid, String app) throws Exception {
    MiniGrid.Cli v = grid.cli("versions", "--app", app, "--node", "n1", "--json");
    assertThat(v.exit()).as(v.stderr()).isZero();
    JsonNode rows = v.json();
    return rows.get(rows.size() - 1).get("status").asText();
  }
}
