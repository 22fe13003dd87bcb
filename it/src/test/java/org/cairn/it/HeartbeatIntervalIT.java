package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A donor that joins a tracker with a shorter heartbeat interval adopts the tracker's
 * interval from the register and heartbeat answers, instead of flapping DOWN/RUNNING. The tracker
 * heartbeats at 1 s (DOWN after 3 s); a peer is started with a 5 s interval of its own and a headless
 * tray donor with its default (5 s). Neither may show DOWN over 60 s.
 */
class HeartbeatIntervalIT {
  @TempDir
  Path root;

  private MiniGrid grid;
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void stop() {
    processes.forEach(Process::destroyForcibly);
    if (grid != null) {
      grid.close();
    }
  }

  @Test
  void peerAndTrayDonorWithA5sInterval_neverShowDownOnA1sTracker() throws Exception {
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker();
    MiniGrid.Node peer = grid.startPeer("slow", "--id", "slow", "--heartbeat-interval", "5s");
    ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-jar",
        MiniGrid.jar("gui", "cairn-donor.jar").toString(), "--headless", "--tracker", grid.trackerUrl(), "--token-file",
        grid.tokenFile().toString(), "--data", root.resolve("donor").toString(), "--listen", "127.0.0.1:0", "--quota", "1GiB")
        .redirectOutput(root.resolve("donor.out").toFile()).redirectError(root.resolve("donor.err").toFile());
    pb.environment().remove("DISPLAY");
    processes.add(pb.start());
    MiniGrid.await("both donors registered", Duration.ofSeconds(60), () -> grid.peers().size() == 2);

    // six of the donors' 5 s intervals: a tracker that held them to its own 1 s would mark them DOWN within the first
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    int samples = 0;
    while (System.nanoTime() < end) {
      for (JsonNode p : grid.peers()) {
        assertThat(p.get("state").asText()).as("%s after %d samples (peer log: %s)", p.get("id").asText(), samples, peer.stderr())
            .isNotEqualTo("DOWN");
      }
      samples++;
      Thread.sleep(250); // sampling the tracker's view over a fixed period: this is the measurement, not a wait
    }
    assertThat(samples).isGreaterThan(50);
  }
}
