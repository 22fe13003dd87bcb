package org.cairn.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.cairn.core.security.GridToken;

/**
 * The {@code java} command line for the processes integration tests start: the suite starts several
 * hundred short-lived JVMs (trackers, peers, client commands) on two cores, and their start-up is most
 * of its CPU time. Each gets the class-data-sharing archive of its jar ({@code cairn.jsa}, which the
 * client build makes; for the tracker and the peer, one trained here once per test JVM by starting a
 * tracker and a peer and stopping them gracefully) and the C1 compiler only; neither changes what
 * the process does. A JVM that cannot use an archive runs without it ({@code -Xshare:auto}).
 */
final class TestJvm {
  private static final Pattern TRACKER_URL = Pattern.compile("listening on (https?://\\S+)");
  private static final Pattern PEER_LINE = Pattern.compile("cairn-peer \\S+ serving on \\S+,");
  private static final Map<Path, Path> ARCHIVES = new ConcurrentHashMap<>();
  private static Path trainingDir;

  private TestJvm() {}

  /** {@code java [flags] -jar JAR}, ready for the program's arguments. */
  static List<String> command(Path jar) {
    List<String> cmd = new ArrayList<>();
    cmd.add(java());
    cmd.add("-Xmx256m");
    cmd.add("-XX:TieredStopAtLevel=1");
    Path archive = archive(jar);
    if (archive != null) {
      cmd.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto", "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
    }
    cmd.add("-jar");
    cmd.add(jar.toString());
    return cmd;
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static synchronized Path archive(Path jar) {
    Path known = ARCHIVES.get(jar);
    if (known != null || ARCHIVES.containsKey(jar)) {
      return known;
    }
    String name = jar.getFileName().toString();
    if (name.equals("cairn.jar")) {
      Path jsa = jar.resolveSibling("cairn.jsa"); // made by the client-cli build
      ARCHIVES.put(jar, Files.isRegularFile(jsa) ? jsa : null);
    } else if (name.equals("cairn-tracker.jar") || name.equals("cairn-peer.jar")) {
      train();
    }
    return ARCHIVES.get(jar);
  }

  /** Starts a tracker and a peer that write their classes at exit, and stops both gracefully. */
  private static void train() {
    Path tracker = MiniGrid.jar("tracker", "cairn-tracker.jar");
    Path peer = MiniGrid.jar("peer", "cairn-peer.jar");
    Path trackerJsa = null;
    Path peerJsa = null;
    try {
      trainingDir = Files.createTempDirectory("cairn-it-cds");
      Path token = Files.writeString(trainingDir.resolve("token"), GridToken.generate() + "\n");
      trackerJsa = trainingDir.resolve("tracker.jsa");
      peerJsa = trainingDir.resolve("peer.jsa");
      Process t = startDumping(tracker, trackerJsa, "tracker", List.of("--data", trainingDir.resolve("t").toString(),
          "--listen", "127.0.0.1:0", "--token-file", token.toString(), "--heartbeat-interval", "500ms"));
      Process p = null;
      try {
        String url = awaitLine(t, trainingDir.resolve("tracker.out"), TRACKER_URL).group(1);
        p = startDumping(peer, peerJsa, "peer", List.of("--tracker", url, "--data", trainingDir.resolve("p").toString(),
            "--listen", "127.0.0.1:0", "--quota", "64MiB", "--min-free", "0", "--token-file", token.toString(),
            "--heartbeat-interval", "500ms"));
        awaitLine(p, trainingDir.resolve("peer.out"), PEER_LINE);
      } finally {
        boolean peerDone = stop(p);
        boolean trackerDone = stop(t);
        if (!peerDone || !trackerDone) { // killed while it may have been writing: no archive
          Files.deleteIfExists(peerJsa);
          Files.deleteIfExists(trackerJsa);
        }
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      System.err.println("TestJvm: no class-data archive for the tracker and peer (" + e + "); they start without one");
    }
    ARCHIVES.put(tracker, trackerJsa != null && Files.isRegularFile(trackerJsa) ? trackerJsa : null);
    ARCHIVES.put(peer, peerJsa != null && Files.isRegularFile(peerJsa) ? peerJsa : null);
  }

  private static Process startDumping(Path jar, Path jsa, String name, List<String> args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
        "-XX:ArchiveClassesAtExit=" + jsa, "-Xlog:cds=off", "-Xlog:cds+dynamic=off", "-jar", jar.toString()));
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .redirectOutput(trainingDir.resolve(name + ".out").toFile())
        .redirectError(trainingDir.resolve(name + ".err").toFile());
    pb.environment().put("CAIRN_KEY_DIR", trainingDir.resolve("keys").toString());
    return pb.start();
  }

  private static Matcher awaitLine(Process p, Path out, Pattern pattern) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline && p.isAlive()) {
      Matcher m = pattern.matcher(Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8) : "");
      if (m.find()) {
        return m;
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("training process did not print " + pattern + " (alive: " + p.isAlive() + ")");
  }

  /**
   * SIGTERM: the JVM runs its shutdown hooks and writes its archive as it exits. False if it had to
   * be killed.
   */
  private static boolean stop(Process p) throws InterruptedException {
    if (p == null) {
      return false;
    }
    p.destroy();
    if (p.waitFor(60, TimeUnit.SECONDS)) {
      return true;
    }
    p.destroyForcibly();
    p.waitFor();
    return false;
  }
}
