package org.cairn.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.cairn.it.MiniGrid;

/**
 * What the attack suite's tests share: starting a grid with roles in the transport under test (the
 * default, or plain HTTP as an operator who opts out of TLS does), issuing tokens, and running the
 * {@code cairn} CLI against a tracker address of the test's choosing (a man in the middle's).
 *
 * <p>Which flags choose the transport is read from {@code cairn-tracker --help}: a tracker that
 * knows {@code --insecure-plain-http} serves HTTPS by default; an older one needs {@code --tls}.
 */
final class Hostile {
  static final ObjectMapper JSON = new ObjectMapper();
  private static Boolean tlsByDefault;

  private Hostile() {}

  /** True if the tracker serves HTTPS unless told {@code --insecure-plain-http}. */
  static synchronized boolean tlsByDefault(MiniGrid grid) throws IOException, InterruptedException {
    if (tlsByDefault == null) {
      MiniGrid.Cli help = grid.trackerCommand("--help");
      tlsByDefault = (help.stdout() + help.stderr()).contains("--insecure-plain-http");
    }
    return tlsByDefault;
  }

  /** The tracker's arguments for the grid's default transport, HTTPS with its own CA. */
  static String[] tls(MiniGrid grid) throws IOException, InterruptedException {
    return tlsByDefault(grid) ? new String[0] : new String[] {"--tls"};
  }

  /** The tracker's arguments for plain HTTP. */
  static String[] plain(MiniGrid grid) throws IOException, InterruptedException {
    return tlsByDefault(grid) ? new String[] {"--insecure-plain-http"} : new String[0];
  }

  /**
   * Starts a tracker with roles ({@code extra} its flags) and {@code peers} donors enrolled with one
   * donor token, and waits until all run; returns the peers.
   */
  static List<MiniGrid.Node> startGrid(MiniGrid grid, Path root, int peers, String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of(extra));
    args.addAll(List.of("--repair-grace", "1h")); // a dropped holder shows as degraded instead of being rebuilt at once
    grid.startTrackerWithRoles(args.toArray(String[]::new));
    Path donor = Files.writeString(root.resolve("donors.token"), token(grid, "--role", "donor", "--uses", "100") + "\n");
    List<MiniGrid.Node> nodes = new ArrayList<>();
    for (int i = 0; i < peers; i++) {
      nodes.add(grid.startPeer("p" + i, "--token-file", donor.toString()));
    }
    MiniGrid.await(peers + " donors RUNNING", Duration.ofSeconds(60), () -> running(grid) >= peers, () -> grid.peers().toString());
    return nodes;
  }

  /** How many peers the tracker lists RUNNING. */
  static int running(MiniGrid grid) throws Exception {
    int n = 0;
    for (JsonNode p : grid.peers()) {
      n += "RUNNING".equals(p.get("state").asText()) ? 1 : 0;
    }
    return n;
  }

  /** {@code cairn-tracker token create --data D ARGS...}: the token it prints (with the CA pin on a TLS grid). */
  static String token(MiniGrid grid, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("token", "create", "--data", grid.trackerData().toString()));
    all.addAll(List.of(args));
    MiniGrid.Cli r = grid.trackerCommand(all.toArray(String[]::new));
    assertThat(r.exit()).as(r.stderr()).isZero();
    return r.stdout().strip();
  }

  /** A token written to {@code ROOT/NAME.token}. */
  static Path tokenFile(Path root, String name, String token) throws IOException {
    return Files.writeString(root.resolve(name + ".token"), token + "\n");
  }

  /** Seeded random bytes in a new file. */
  static Path randomFile(Path file, int size, long seed) throws IOException {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return Files.write(file, b);
  }

  /**
   * Runs {@code cairn --tracker URL --token-file F ARGS...} with the grid's compute-host environment
   * (its keys): the CLI pointed at an address the test chooses.
   */
  static MiniGrid.Cli cliAt(MiniGrid grid, String trackerUrl, Path credential, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-XX:TieredStopAtLevel=1", "-jar", MiniGrid.jar("client-cli", "cairn.jar").toString(),
        "--tracker", trackerUrl, "--token-file", credential.toString()));
    cmd.addAll(List.of(args));
    return grid.command(cmd, Map.of());
  }

  /** The java command that runs {@code main} of a class of this suite as its own process. */
  static List<String> javaMain(Class<?> main, String... args) {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
        "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), main.getName()));
    cmd.addAll(List.of(args));
    return cmd;
  }
}
