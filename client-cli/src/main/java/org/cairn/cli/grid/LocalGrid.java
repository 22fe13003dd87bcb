package org.cairn.cli.grid;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.cairn.client.Grid;
import org.cairn.core.security.GridToken;

/**
 * A grid on this machine: a tracker and N peers as child processes (the same class path as this
 * program: {@code cairn.jar} contains both daemons), each with its data and logs under one
 * directory and ephemeral loopback ports. {@code DIR/grid.json} records the tracker URL, token file
 * and process ids so {@code cairn grid down} can stop a grid started by {@code cairn grid up}.
 */
public final class LocalGrid implements Closeable {
  private static final Pattern TRACKER_URL = Pattern.compile("listening on (https?://\\S+)");
  private static final Pattern PEER_LINE = Pattern.compile("cairn-peer (\\S+) serving on (\\S+),");

  /** One child process. */
  public record Member(String name, String id, String address, Process process) {}

  private final Path dir;
  private final Path tokenFile;
  private final List<Member> members = new ArrayList<>();
  private String trackerUrl;

  private LocalGrid(Path dir, Path tokenFile) {
    this.dir = dir;
    this.tokenFile = tokenFile;
  }

  /** Starts a tracker and {@code peers} peers under {@code dir}; kills whatever started if anything fails. */
  public static LocalGrid start(Path dir, int peers, long quotaBytes, Duration heartbeat) throws IOException, InterruptedException {
    return start(dir, peers, quotaBytes, heartbeat, "token");
  }

  /** As {@link #start(Path, int, long, Duration)}, with the tracker's {@code --status-page} (token, public or public-apps). */
  public static LocalGrid start(Path dir, int peers, long quotaBytes, Duration heartbeat, String statusPage)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Path tokenFile = dir.resolve("grid.token");
    if (!Files.exists(tokenFile)) {
      writeSecret(tokenFile, GridToken.generate());
    }
    LocalGrid grid = new LocalGrid(dir, tokenFile);
    try {
      Member tracker = grid.launch("tracker", "org.cairn.tracker.TrackerMain", List.of("--data", dir.resolve("tracker").toString(),
          "--listen", "127.0.0.1:0", "--token-file", tokenFile.toString(), "--heartbeat-interval", heartbeat.toMillis() + "ms",
          "--status-page", statusPage));
      Matcher m = grid.awaitLine(tracker, TRACKER_URL);
      grid.trackerUrl = m.group(1);
      if (grid.trackerUrl.startsWith("https://")) {
        pinTrackerCa(tokenFile, dir.resolve("tracker"));
      }
      grid.members.set(0, new Member("tracker", "tracker", grid.trackerUrl, tracker.process()));
      for (int i = 0; i < peers; i++) {
        String name = "peer" + i;
        Member p = grid.launch(name, "org.cairn.peer.PeerMain", List.of("--tracker", grid.trackerUrl, "--data",
            dir.resolve(name).toString(), "--listen", "127.0.0.1:0", "--quota", Long.toString(quotaBytes), "--min-free", "0",
            "--token-file", tokenFile.toString(), "--heartbeat-interval", heartbeat.toMillis() + "ms"));
        Matcher pm = grid.awaitLine(p, PEER_LINE);
        grid.members.set(grid.members.size() - 1, new Member(name, pm.group(1), pm.group(2), p.process()));
      }
      grid.writeState();
      return grid;
    } catch (IOException | InterruptedException | RuntimeException e) {
      grid.close();
      throw e;
    }
  }

  /**
   * Rewrites the grid's token file as {@code TOKEN#sha256:PIN}, PIN the CA the tracker made at its first start (in
   * {@code DATA/ca.sha256}), so peers and clients given the file pin the tracker with no certificate step.
   */
  static void pinTrackerCa(Path tokenFile, Path trackerData) throws IOException {
    String pin = Files.readString(trackerData.resolve("ca.sha256"), StandardCharsets.UTF_8).strip();
    GridToken token = GridToken.readFile(tokenFile);
    if (token.caPin().filter(pin::equals).isEmpty() || !isPrivate(tokenFile)) {
      writeSecret(tokenFile, token.withCaPin(pin));
    }
  }

  private static boolean isPrivate(Path f) throws IOException {
    return Files.getPosixFilePermissions(f).equals(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
  }

  /** Writes {@code token} to {@code f} (mode 0600 from its creation) through a temporary file renamed over it. */
  static void writeSecret(Path f, String token) throws IOException {
    Path tmp = Files.createTempFile(f.toAbsolutePath().getParent(), f.getFileName().toString(), ".tmp",
        java.nio.file.attribute.PosixFilePermissions.asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
    try {
      Files.writeString(tmp, token + "\n", StandardCharsets.UTF_8);
      Files.move(tmp, f, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  public String trackerUrl() {
    return trackerUrl;
  }

  public Path tokenFile() {
    return tokenFile;
  }

  public Path dir() {
    return dir;
  }

  /** The tracker's process. */
  public Member tracker() {
    return members.get(0);
  }

  /** The peers, in start order. */
  public List<Member> peers() {
    return members.subList(1, members.size());
  }

  /** SIGKILLs a peer (an eviction without warning). */
  public void kill(Member peer) throws InterruptedException {
    peer.process().destroyForcibly();
    peer.process().waitFor();
  }

  /**
   * JVM flags for the grid's tracker and peers: CAIRN_GRID_JAVA_OPTS if set, else the serial
   * collector and C1 only. Daemons that mostly move bytes between sockets and files gain little
   * from C2 and a concurrent collector, and they share the machine with the client and each other:
   * measured with `cairn benchmark e2e` (docs/benchmarks/journal.md), these flags cut the peers' CPU per
   * store by 15-25 % and raised store and fetch rates.
   */
  static List<String> jvmFlags(String env) {
    if (env != null && !env.isBlank()) {
      return List.of(env.trim().split("\\s+"));
    }
    return List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
  }

  private Member launch(String name, String mainClass, List<String> args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.addAll(jvmFlags(System.getenv("CAIRN_GRID_JAVA_OPTS")));
    cmd.add("-DCAIRN_LOG_LEVEL=INFO");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(mainClass);
    cmd.addAll(args);
    Process p = new ProcessBuilder(cmd)
        .redirectOutput(dir.resolve(name + ".out").toFile())
        .redirectError(dir.resolve(name + ".log").toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .start();
    Member m = new Member(name, null, null, p);
    members.add(m);
    return m;
  }

  private Matcher awaitLine(Member m, Pattern pattern) throws IOException, InterruptedException {
    Path out = dir.resolve(m.name() + ".out");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (Files.exists(out)) {
        Matcher matcher = pattern.matcher(Files.readString(out, StandardCharsets.UTF_8));
        if (matcher.find()) {
          return matcher;
        }
      }
      if (!m.process().isAlive()) {
        throw new IOException(m.name() + " exited with " + m.process().exitValue() + " before starting; see "
            + dir.resolve(m.name() + ".log") + ":\n" + tail(dir.resolve(m.name() + ".log")));
      }
      Thread.sleep(50);
    }
    throw new IOException(m.name() + " did not start within 60 s; see " + dir.resolve(m.name() + ".log"));
  }

  private static String tail(Path log) throws IOException {
    if (!Files.exists(log)) {
      return "";
    }
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
  }

  /** A client of this grid (the caller closes it). */
  public Grid openClient() throws IOException {
    return Grid.open(java.net.URI.create(trackerUrl), org.cairn.core.security.GridToken.readFile(tokenFile), Grid.DEFAULT_TIMEOUT);
  }

  /** What {@code grid.json} records of a running grid, so {@code grid down} can stop it. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record State(String tracker, String tokenFile, List<Proc> processes) {
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Proc(String name, long pid, String address) {}
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private void writeState() throws IOException {
    List<State.Proc> procs = new ArrayList<>();
    for (Member m : members) {
      procs.add(new State.Proc(m.name(), m.process().pid(), m.address() == null ? "" : m.address()));
    }
    State state = new State(trackerUrl, tokenFile.toString(), procs);
    Files.write(dir.resolve("grid.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(state));
  }

  /**
   * The tracker URL of a grid still running from {@code dir} (its {@code grid.json} names a live
   * process), or null: a second {@code grid up} on the same directory is refused with it.
   */
  public static String running(Path dir) throws IOException {
    Path state = dir.resolve("grid.json");
    if (!Files.exists(state)) {
      return null;
    }
    State s = JSON.readValue(state.toFile(), State.class);
    for (State.Proc p : s.processes() == null ? List.<State.Proc>of() : s.processes()) {
      if (ProcessHandle.of(p.pid()).map(ProcessHandle::isAlive).orElse(false)) {
        return s.tracker();
      }
    }
    return null;
  }

  /** Stops the grid recorded in {@code dir/grid.json} (peers first, then the tracker); returns how many processes were stopped. */
  public static int down(Path dir) throws IOException {
    Path state = dir.resolve("grid.json");
    if (!Files.exists(state)) {
      throw new IOException("no grid in " + dir + " (no grid.json); was it started with 'cairn grid up --dir " + dir + "'?");
    }
    State s = JSON.readValue(state.toFile(), State.class);
    List<ProcessHandle> handles = new ArrayList<>();
    for (State.Proc p : s.processes() == null ? List.<State.Proc>of() : s.processes()) {
      ProcessHandle.of(p.pid()).filter(ProcessHandle::isAlive).ifPresent(handles::add);
    }
    java.util.Collections.reverse(handles);
    for (ProcessHandle h : handles) {
      h.destroy();
      try {
        h.onExit().get(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        h.destroyForcibly();
      }
    }
    Files.delete(state);
    return handles.size();
  }

  /** Stops every process still running: peers first (they tell the tracker they leave), then the tracker. */
  @Override
  public void close() {
    List<Member> reversed = new ArrayList<>(members);
    java.util.Collections.reverse(reversed);
    for (Member m : reversed) {
      m.process().destroy();
      try {
        if (!m.process().waitFor(15, TimeUnit.SECONDS)) {
          m.process().destroyForcibly();
        }
      } catch (InterruptedException e) {
        m.process().destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
