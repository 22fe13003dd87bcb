package org.cairn.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.cairn.core.security.GridToken;

/**
 * The {@code java} command line for the processes integration tests start: the suite starts several
 * hundred short-lived JVMs (trackers, peers, client commands) on two cores, and their start-up is most
 * of its CPU time. Each gets the class-data-sharing archive of its jar ({@code cairn.jsa}, which the
 * client build makes; for the tracker and the peer, one trained here once per test JVM by starting a
 * tracker and a peer and stopping them gracefully, in {@code it/target/cds}) and the C1 compiler
 * only; neither changes what the process does. A JVM that cannot use an archive runs without it
 * ({@code -Xshare:auto}), and so does every process when training fails.
 */
final class TestJvm {
  /** Per jar, its archive or empty (none to use); guarded by the class lock. */
  private static final Map<Path, Optional<Path>> ARCHIVES = new HashMap<>();

  private TestJvm() {}

  /** {@code java [flags] -jar JAR}, ready for the program's arguments. */
  static List<String> command(Path jar) {
    return command(jar, extraFlags(System.getProperty(EXTRA_FLAGS, "")));
  }

  private static List<String> command(Path jar, List<String> extra) {
    List<String> cmd = new ArrayList<>();
    cmd.add(java());
    cmd.add("-Xmx256m");
    cmd.add("-XX:TieredStopAtLevel=1");
    archive(jar).ifPresent(archive ->
        cmd.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto", "-Xlog:cds=off", "-Xlog:cds+dynamic=off")));
    cmd.addAll(extra);
    cmd.add("-jar");
    cmd.add(jar.toString());
    return cmd;
  }

  /**
   * The system property of flags added after the defaults, so they win (the JVM takes the last of a flag given twice):
   * {@code -Dcairn.it.jvmFlags=-XX:TieredStopAtLevel=4}, say, runs the processes with the C2 compiler.
   */
  static final String EXTRA_FLAGS = "cairn.it.jvmFlags";

  /** Whose JVM flags a grid's tracker and peers start with. */
  enum Flags {
    /** The suite's (the default): C1 only, a 256 MiB heap and class-data archives, for the suite's start-up. */
    SUITE,
    /**
     * What users run, for benchmarks of what they see: a peer through its launcher ({@code peer/target/cairn-peer},
     * the donor's flags: docs/operations.md, "JVM flags"), the tracker as docs/operations.md starts it
     * ({@code java -jar}: the JVM's defaults). Other jars (the client's commands) start as in {@link #SUITE}.
     */
    DEPLOYED
  }

  /** A process's command line, ready for the program's arguments, and what it adds to the environment. */
  record Launch(List<String> command, Map<String, String> env) {}

  /** The command that starts {@code jar} with {@code flags}, and {@link #EXTRA_FLAGS} after them. */
  static Launch launch(Path jar, Flags flags) {
    return launch(jar, flags, extraFlags(System.getProperty(EXTRA_FLAGS, "")));
  }

  /** As {@link #launch(Path, Flags)}, with {@code extra} in place of the property's flags. */
  static Launch launch(Path jar, Flags flags, List<String> extra) {
    String name = jar.getFileName().toString();
    if (flags == Flags.DEPLOYED && name.equals("cairn-peer.jar")) {
      return deployedPeer(jar, extra);
    }
    if (flags == Flags.DEPLOYED && name.equals("cairn-tracker.jar")) {
      List<String> cmd = new ArrayList<>(List.of(java()));
      cmd.addAll(extra);
      cmd.addAll(List.of("-jar", jar.toString()));
      return new Launch(cmd, Map.of());
    }
    return new Launch(command(jar, extra), Map.of());
  }

  /**
   * {@code sh cairn-peer} beside the jar, the donor's launcher, with this JVM as its {@code JAVA_HOME} and
   * {@code extra} as its {@code CAIRN_PEER_JAVA_OPTS} (which it puts after its own flags); the launcher
   * {@code exec}s the JVM, so the process started is the peer's JVM itself.
   */
  static Launch deployedPeer(Path jar, List<String> extra) {
    Path launcher = jar.resolveSibling("cairn-peer");
    if (!Files.isRegularFile(launcher)) {
      throw new IllegalStateException(launcher + " (the donor's launcher) is missing; build with ./mvnw -B -DskipTests package first");
    }
    return new Launch(List.of("sh", launcher.toString()),
        Map.of("JAVA_HOME", System.getProperty("java.home"), "CAIRN_PEER_JAVA_OPTS", String.join(" ", extra)));
  }

  /** The JVM flags in {@code value} (separated by spaces); each must start with '-', so a stray word is no program argument. */
  static List<String> extraFlags(String value) {
    List<String> out = new ArrayList<>();
    for (String flag : value.trim().split("\\s+")) {
      if (flag.isEmpty()) {
        continue;
      }
      if (!flag.startsWith("-")) {
        throw new IllegalArgumentException(EXTRA_FLAGS + " holds JVM flags (each starting with '-'), not '" + flag + "'");
      }
      out.add(flag);
    }
    return out;
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static synchronized Optional<Path> archive(Path jar) {
    if (!ARCHIVES.containsKey(jar)) {
      String name = jar.getFileName().toString();
      if (name.equals("cairn.jar")) {
        Path jsa = jar.resolveSibling("cairn.jsa"); // made by the client-cli build
        ARCHIVES.put(jar, Optional.of(jsa).filter(Files::isRegularFile));
      } else if (name.equals("cairn-tracker.jar") || name.equals("cairn-peer.jar")) {
        train();
      }
    }
    return ARCHIVES.getOrDefault(jar, Optional.empty());
  }

  /** Starts a tracker and a peer that write their classes at exit, and stops both gracefully. */
  private static void train() {
    Path tracker = MiniGrid.jar("tracker", "cairn-tracker.jar");
    Path peer = MiniGrid.jar("peer", "cairn-peer.jar");
    Path trackerJsa = null;
    Path peerJsa = null;
    try {
      Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target", "cds")), "training");
      Path token = Files.writeString(dir.resolve("token"), GridToken.generate() + "\n");
      trackerJsa = dir.resolve("tracker.jsa");
      peerJsa = dir.resolve("peer.jsa");
      MiniGrid.Node t = startDumping(dir, tracker, trackerJsa, "tracker", List.of("--data", dir.resolve("t").toString(),
          "--listen", "127.0.0.1:0", "--token-file", token.toString(), "--heartbeat-interval", "500ms"));
      MiniGrid.Node p = null;
      try {
        String url = t.awaitLine(MiniGrid.TRACKER_URL, Duration.ofSeconds(60)).group(1);
        p = startDumping(dir, peer, peerJsa, "peer", List.of("--tracker", url, "--data", dir.resolve("p").toString(),
            "--listen", "127.0.0.1:0", "--quota", "64MiB", "--min-free", "0", "--token-file", token.toString(),
            "--heartbeat-interval", "500ms"));
        p.awaitLine(MiniGrid.PEER_LINE, Duration.ofSeconds(60));
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
    ARCHIVES.put(tracker, Optional.ofNullable(trackerJsa).filter(Files::isRegularFile));
    ARCHIVES.put(peer, Optional.ofNullable(peerJsa).filter(Files::isRegularFile));
  }

  private static MiniGrid.Node startDumping(Path dir, Path jar, Path jsa, String name, List<String> args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
        "-XX:ArchiveClassesAtExit=" + jsa, "-Xlog:cds=off", "-Xlog:cds+dynamic=off", "-jar", jar.toString()));
    cmd.addAll(args);
    Path out = dir.resolve(name + ".out");
    Path err = dir.resolve(name + ".err");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().put("CAIRN_KEY_DIR", dir.resolve("keys").toString());
    return new MiniGrid.Node(name, pb.start(), out, err, 0);
  }

  /**
   * SIGTERM: the JVM runs its shutdown hooks and writes its archive as it exits. False if it had to
   * be killed.
   */
  private static boolean stop(MiniGrid.Node node) throws InterruptedException {
    if (node == null) {
      return false;
    }
    Process p = node.process();
    p.destroy();
    if (p.waitFor(60, TimeUnit.SECONDS)) {
      return true;
    }
    p.destroyForcibly();
    p.waitFor();
    return false;
  }
}
