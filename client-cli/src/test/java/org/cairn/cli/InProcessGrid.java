package org.cairn.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.config.HostPort;
import org.cairn.core.security.GridToken;
import org.cairn.peer.PeerConfig;
import org.cairn.peer.PeerRuntime;
import org.cairn.tracker.Tracker;
import org.cairn.tracker.service.TrackerConfig;
import picocli.CommandLine;

/** A real tracker and real peers in this JVM on loopback, with the cairn commands run against them in-process. */
final class InProcessGrid implements AutoCloseable {
  /** A finished command. */
  record Run(int exit, String out, String err) {}

  private final Path root;
  private final Path tokenFile;
  private final GridToken token;
  private final Tracker tracker;
  private final List<PeerRuntime> peers = new ArrayList<>();

  InProcessGrid(Path root, int peerCount) throws Exception {
    this.root = root;
    String text = GridToken.generate();
    this.token = GridToken.of(text);
    this.tokenFile = Files.writeString(Files.createDirectories(root).resolve("token"), text);
    tracker = new Tracker(TrackerConfig.builder(trackerDir()).listen(HostPort.parse("127.0.0.1:0")).token(token)
        .heartbeatInterval(Duration.ofMillis(500)).peerTimeout(Duration.ofSeconds(5)).historySlot(Duration.ofSeconds(1))
        .historyRetention(Duration.ofDays(1)).historyWindow(Duration.ofDays(1)).repairInterval(Duration.ofMillis(500))
        .repairJobsPerPeer(2).tls(false).build(), Clock.systemUTC());
    try {
      for (int i = 0; i < peerCount; i++) {
        peers.add(PeerRuntime.start(PeerConfig.builder(java.util.List.of(URI.create(url())), peerDir(i), token, 1L << 30)
            .minFreeBytes(0).heartbeatInterval(Duration.ofMillis(500)).id("p" + i).repairRate(0).repairThreads(1)
            .reportDiskRate(false).build()));
      }
      awaitRunningPeers(peerCount);
    } catch (Exception | Error e) {
      close();
      throw e;
    }
  }

  String url() {
    return "http://127.0.0.1:" + tracker.port();
  }

  /** The tracker itself (its history, to seed). */
  Tracker tracker() {
    return tracker;
  }

  Path tokenFile() {
    return tokenFile;
  }

  Path trackerDir() {
    return root.resolve("tracker");
  }

  Path peerDir(int i) {
    return root.resolve("peer" + i);
  }

  int peerCount() {
    return peers.size();
  }

  /** Runs {@code cairn --tracker URL --token-file F ARGS...} in this JVM. */
  Run cairn(String... args) {
    List<String> all = new ArrayList<>(List.of("--tracker", url(), "--token-file", tokenFile.toString()));
    all.addAll(List.of(args));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = CairnCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(all.toArray(String[]::new));
    return new Run(exit, out.toString(), err.toString());
  }

  private void awaitRunningPeers(int n) throws IOException, InterruptedException {
    TrackerClient client = new TrackerClient(URI.create(url()), token, Duration.ofSeconds(5));
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      long running = client.peers().stream().map(PeerView::state).filter("RUNNING"::equals).count();
      if (running >= n) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("only " + running + " of " + n + " peers are RUNNING after 30 s");
      }
      Thread.sleep(50); // polling the tracker until the peers' first heartbeats land, not a fixed wait
    }
  }

  /** Stops the peers, then the tracker, so that everything they wrote is on disk. */
  @Override
  public void close() {
    for (PeerRuntime p : peers) {
      p.close();
    }
    peers.clear();
    tracker.close();
  }
}
