package org.cairn.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.cairn.core.security.GridToken;

/**
 * A grid of real processes on loopback for integration tests: one tracker ({@code cairn-tracker.jar})
 * and peers ({@code cairn-peer.jar}), each a separate JVM with its own data directory under a
 * temporary root, ephemeral ports, and output in {@code ROOT/NAME.out|err}. {@link #close()} kills
 * whatever is still running.
 */
public final class MiniGrid implements Closeable {
  /**
   * How long a process may take to say it is up. Ample: a restarted tracker took over 30 s to open its stores on a
   * machine at load 50, and a test waiting for a line gains nothing from failing early.
   */
  private static final Duration START_LIMIT = Duration.ofSeconds(120);

  private static final ObjectMapper JSON = new ObjectMapper();
  static final Pattern TRACKER_URL = Pattern.compile("listening on (https?://\\S+)");
  static final Pattern PEER_LINE = Pattern.compile("cairn-peer (\\S+) serving on (\\S+),");
  private static final Pattern AGENT_LINE = Pattern.compile("cairn agent for \\S+ on \\S+");

  private final Path root;
  private Path tokenFile;
  private String token;
  private final Duration heartbeat;
  private HttpClient http;
  private final List<Node> nodes = new ArrayList<>();
  private Node tracker;
  private String trackerUrl;
  private int trackerPort;

  /** Whose JVM flags the tracker and peers start with. */
  private final TestJvm.Flags flags;

  public MiniGrid(Path root, Duration heartbeat) throws IOException {
    this(root, heartbeat, TestJvm.Flags.SUITE);
  }

  /** A grid whose tracker and peers start with {@code flags} ({@link TestJvm.Flags#DEPLOYED} for benchmarks). */
  MiniGrid(Path root, Duration heartbeat, TestJvm.Flags flags) throws IOException {
    this.root = root;
    this.heartbeat = heartbeat;
    this.flags = flags;
    this.token = GridToken.generate();
    this.tokenFile = Files.writeString(root.resolve("token"), token + "\n");
  }

  public static Path jar(String module, String name) {
    Path base = Path.of(System.getProperty("cairn.root", ".."));
    Path jar = base.resolve(module).resolve("target").resolve(name);
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing; build with ./mvnw -B -DskipTests package first");
    }
    return jar;
  }

  public String token() {
    return token;
  }

  public Path tokenFile() {
    return tokenFile;
  }

  /** Rewrites the grid's token file to pin the CA whose SHA-256 is {@code pin} (an https:// tracker's). */
  synchronized void pinCa(String pin) throws IOException {
    Files.writeString(tokenFile, token + "#sha256:" + pin + "\n");
    http = null; // the next call trusts the pinned CA
  }

  public String trackerUrl() {
    return trackerUrl;
  }

  /** Starts the tracker (on a free port the first time, on the same port after a restart). */
  public void startTracker(String... extraArgs) throws IOException, InterruptedException {
    startTracker(true, extraArgs);
  }

  /**
   * Starts the tracker as an operator does on a grid with roles: no {@code --token-file}, so the
   * tracker makes {@code DATA/admin.token} at its first start; from then on {@link #token()} and
   * {@link #tokenFile()} are that admin token.
   */
  public void startTrackerWithRoles(String... extraArgs) throws IOException, InterruptedException {
    startTracker(false, extraArgs);
    tokenFile = trackerData().resolve("admin.token");
    token = GridToken.readFile(tokenFile).bearerValue();
  }

  /** The tracker's data directory. */
  public Path trackerData() {
    return root.resolve("tracker");
  }

  private void startTracker(boolean withToken, String... extraArgs) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of("--data", trackerData().toString(), "--listen", "127.0.0.1:" + trackerPort,
        "--heartbeat-interval", heartbeat.toMillis() + "ms"));
    if (!List.of(extraArgs).contains("--history-slot")) {
      args.addAll(List.of("--history-slot", "1s")); // tests of history see slots fill in seconds
    }
    if (withToken) {
      args.addAll(List.of("--token-file", tokenFile.toString()));
    }
    if (!List.of(extraArgs).contains("--gc-hold")) {
      // GC soon after a (re)start, as tests of GC need; still longer than a client takes to name its chunks again
      args.addAll(List.of("--gc-hold", "5s"));
    }
    args.addAll(List.of(extraArgs));
    tracker = start("tracker", jar("tracker", "cairn-tracker.jar"), args);
    Matcher m = tracker.awaitLine(TRACKER_URL, START_LIMIT);
    trackerUrl = m.group(1);
    trackerPort = URI.create(trackerUrl).getPort();
    if (withToken && trackerUrl.startsWith("https://")) {
      // the default, TLS: the grid's token pins the CA the tracker made at its first start, as 'cairn grid up' does
      pinCa(Files.readString(trackerData().resolve("ca.sha256")).strip());
    }
  }

  public Node tracker() {
    return tracker;
  }

  /** Starts a peer and waits until it printed its id and address. */
  public Node startPeer(String name, String... extraArgs) throws IOException, InterruptedException {
    List<String> given = List.of(extraArgs);
    String[][] defaults = {{"--tracker", trackerUrl}, {"--data", root.resolve(name).toString()}, {"--listen", "127.0.0.1:0"},
        {"--quota", "2GiB"}, {"--min-free", "0"}, {"--token-file", tokenFile.toString()},
        {"--heartbeat-interval", heartbeat.toMillis() + "ms"}};
    List<String> args = new ArrayList<>();
    for (String[] d : defaults) {
      if (!given.contains(d[0])) { // a test's own value wins
        args.add(d[0]);
        args.add(d[1]);
      }
    }
    args.addAll(given);
    Node n = start(name, jar("peer", "cairn-peer.jar"), args);
    Matcher m = n.awaitLine(PEER_LINE, START_LIMIT);
    n.peerId = m.group(1);
    n.address = m.group(2);
    return n;
  }

  /**
   * Starts {@code cairn --tracker URL --token-file F ARGS...} without waiting for it (a job such as
   * {@code dmtcp launch}), with {@code env} added; its output goes to ROOT/NAME.out and .err.
   */
  /** Starts peers p0..p{n-1} with their defaults and waits until the tracker lists all n RUNNING. */
  public void startPeersRunning(int n) throws Exception {
    for (int i = 0; i < n; i++) {
      startPeer("p" + i);
    }
    await(n + " peers RUNNING", START_LIMIT,
        () -> peers().size() == n && peers().findValues("state").stream().allMatch(s -> s.asText().equals("RUNNING")));
  }

  public Node startCli(String name, java.util.Map<String, String> env, String... args) throws IOException {
    return start(name, jar("client-cli", "cairn.jar"), withGrid(tokenFile, args), env);
  }

  /** As {@link #startCli}, with another credential's token file (a client scoped to other apps, say). */
  public Node startCliAs(Path credential, String name, java.util.Map<String, String> env, String... args) throws IOException {
    return start(name, jar("client-cli", "cairn.jar"), withGrid(credential, args), env);
  }

  private Node start(String name, Path jar, List<String> args) throws IOException {
    return start(name, jar, args, java.util.Map.of());
  }

  /** Starts a process of this grid ({@link TrackerGroup}'s members). */
  Node startProcess(String name, Path jar, List<String> args) throws IOException {
    return start(name, jar, args);
  }

  /** Peers and commands from now on are given these trackers ({@code --tracker URL1,URL2,...}). */
  void useTrackers(String urls) {
    trackerUrl = urls;
  }

  Path root() {
    return root;
  }

  private Node start(String name, Path jar, List<String> args, java.util.Map<String, String> env) throws IOException {
    TestJvm.Launch launch = TestJvm.launch(jar, flags);
    List<String> cmd = new ArrayList<>(launch.command());
    cmd.addAll(args);
    Path out = root.resolve(name + ".out");
    Path err = root.resolve(name + ".err");
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()))
        .redirectError(ProcessBuilder.Redirect.appendTo(err.toFile()));
    pb.environment().put("CAIRN_KEY_DIR", root.resolve("keys").toString());
    pb.environment().put("CAIRN_BASE_CACHE", baseCache().toString());
    pb.environment().putAll(launch.env());
    pb.environment().putAll(env);
    Process p = pb.start();
    Node n = new Node(name, p, out, err, Files.exists(out) ? Files.size(out) : 0);
    nodes.add(n);
    return n;
  }

  /**
   * Starts {@code cairn --tracker URL --token-file F agent --socket SOCKET} with this
   * grid's key directory, and waits until it serves.
   */
  public Node startAgent(String name, Path socket, String... extraArgs) throws IOException, InterruptedException {
    return startAgent(name, socket, java.util.Map.of(), extraArgs);
  }

  /** As {@link #startAgent(String, Path, String...)}, with more environment variables ({@code JDK_JAVA_OPTIONS}, say). */
  public Node startAgent(String name, Path socket, java.util.Map<String, String> env, String... extraArgs)
      throws IOException, InterruptedException {
    List<String> args = withGrid(tokenFile, "agent", "--socket", socket.toString());
    args.addAll(List.of(extraArgs));
    Node n = start(name, jar("client-cli", "cairn.jar"), args, env);
    n.awaitLine(AGENT_LINE, START_LIMIT);
    return n;
  }

  /**
   * Runs the launcher {@code client-cli/target/cairn ARGS...} (no grid flags) with
   * {@code CAIRN_AGENT_SOCKET=socket}: a thin command handed to the agent.
   */
  public Cli viaAgent(Path socket, String... args) throws IOException, InterruptedException {
    return viaAgentWith(java.util.Map.of(), socket, args);
  }

  /** As {@link #viaAgent}, with more environment variables ({@code CAIRN_JAVA_OPTS}, say). */
  public Cli viaAgentWith(java.util.Map<String, String> env, Path socket, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("sh", jar("client-cli", "cairn").toString()));
    cmd.addAll(List.of(args));
    java.util.Map<String, String> all = new java.util.HashMap<>(env);
    all.put("CAIRN_AGENT_SOCKET", socket.toString());
    return runCommand(cmd, null, "thin", all);
  }

  /** As {@link #viaAgent}, with standard output (data, say) going to {@code stdout} as bytes. */
  public Cli viaAgentTo(Path stdout, Path socket, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("sh", "-c", "exec sh \"$0\" \"$@\" > \"$CAIRN_TEST_STDOUT\"", jar("client-cli", "cairn").toString()));
    cmd.addAll(List.of(args));
    return runCommand(cmd, null, "thin", java.util.Map.of("CAIRN_AGENT_SOCKET", socket.toString(), "CAIRN_TEST_STDOUT", stdout.toString()));
  }

  /** The compute host's cache of base chunks for this grid's commands ({@code CAIRN_BASE_CACHE}). */
  public Path baseCache() {
    return root.resolve("bases");
  }

  /** Empties {@link #baseCache}: the next command reads every chunk and base it needs from the grid, as on another host. */
  public void forgetBases() throws IOException {
    if (Files.isDirectory(baseCache())) {
      try (java.util.stream.Stream<Path> files = Files.list(baseCache())) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.deleteIfExists(f);
        }
      }
    }
  }

  /** Runs {@code java -jar cairn.jar --tracker URL --token-file F ARGS...} to completion. */
  public Cli cli(String... args) throws IOException, InterruptedException {
    return cliWithStdin(null, args);
  }

  /** As {@link #cli}, with standard input read from a file. */
  public Cli cliWithStdin(Path stdin, String... args) throws IOException, InterruptedException {
    return run(stdin, "cli", jar("client-cli", "cairn.jar"), withGrid(tokenFile, args));
  }

  /** As {@link #cli}, with another credential's token file (a scoped client's, say). */
  public Cli cliAs(Path credential, String... args) throws IOException, InterruptedException {
    return run(null, "cli", jar("client-cli", "cairn.jar"), withGrid(credential, args));
  }

  /**
   * Runs {@code java -jar cairn-tracker.jar ARGS...} (a subcommand such as {@code token create}) to
   * completion; its output goes to {@code ROOT/tracker-command*.out|err}.
   */
  public Cli trackerCommand(String... args) throws IOException, InterruptedException {
    return run(null, "tracker-command", jar("tracker", "cairn-tracker.jar"), List.of(args));
  }

  private List<String> withGrid(Path credential, String... args) {
    List<String> all = new ArrayList<>(List.of("--tracker", trackerUrl, "--token-file", credential.toString()));
    all.addAll(List.of(args));
    return all;
  }

  private Cli run(Path stdin, String outputPrefix, Path jar, List<String> args) throws IOException, InterruptedException {
    List<String> cmd = TestJvm.command(jar);
    cmd.addAll(args);
    return runCommand(cmd, stdin, outputPrefix, java.util.Map.of());
  }

  /** Runs {@code cmd} to completion with this grid's compute-host environment (keys, base cache) and {@code env}. */
  public Cli command(List<String> cmd, java.util.Map<String, String> env) throws IOException, InterruptedException {
    return runCommand(cmd, null, "cmd", env);
  }

  private Cli runCommand(List<String> cmd, Path stdin, String outputPrefix, java.util.Map<String, String> env)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile(root, outputPrefix, ".out");
    Path err = Files.createTempFile(root, outputPrefix, ".err");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    // app keys (stores encrypt by default) stay with this grid, not in the user's ~/.config/cairn/keys
    pb.environment().put("CAIRN_KEY_DIR", root.resolve("keys").toString());
    pb.environment().put("CAIRN_BASE_CACHE", baseCache().toString()); // as the keys: this grid's compute host, not the user's
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().putAll(env);
    if (stdin != null) {
      pb.redirectInput(stdin.toFile());
    }
    Process p = pb.start();
    if (!p.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", cmd) + " did not finish in 5 minutes");
    }
    return new Cli(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** A finished CLI run. */
  public record Cli(int exit, String stdout, String stderr) {
    public JsonNode json() throws IOException {
      return JSON.readTree(stdout);
    }
  }

  /** GET with the grid token; returns status and parsed JSON (null for non-JSON). */
  public Result get(String path) throws IOException, InterruptedException {
    return get(path, "Bearer " + token);
  }

  public Result get(String path, String authorization) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(trackerUrl + path)).timeout(Duration.ofSeconds(10));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    HttpResponse<String> r = http().send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
    JsonNode body = null;
    if (r.headers().firstValue("content-type").orElse("").startsWith("application/json")) {
      body = JSON.readTree(r.body());
    }
    return new Result(r.statusCode(), body, r.body());
  }

  /** The grid's data-plane key (what peers and clients prove to each other on the data plane), from the tracker. */
  public String dataKey() throws IOException, InterruptedException {
    Result r = get("/api/v1/dataplane");
    if (r.status() != 200) {
      throw new IOException("GET /api/v1/dataplane answered " + r.status() + ": " + r.text());
    }
    return r.json().get("key").asText();
  }

  /**
   * A data-plane ticket (encoded) the tracker signs at the operator's request ({@code POST
   * /api/v1/tickets}, admin token): {@code op} READ or WRITE on {@code peerId}'s pieces of the chunks.
   */
  public byte[] ticket(String op, String peerId, java.util.List<org.cairn.core.hash.ChunkId> chunks, Long ttlSeconds)
      throws IOException, InterruptedException {
    java.util.List<String> hex = chunks.stream().map(org.cairn.core.hash.ChunkId::hex).toList();
    String body = JSON.writeValueAsString(new org.cairn.core.api.member.TicketRequest(op, peerId, hex, ttlSeconds));
    HttpRequest req = HttpRequest.newBuilder(URI.create(trackerUrl + "/api/v1/tickets")).timeout(Duration.ofSeconds(10))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    HttpResponse<String> r = http().send(req, HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException("POST /api/v1/tickets answered " + r.statusCode() + ": " + r.body());
    }
    return org.cairn.core.security.Ticket.fromBase64(JSON.readTree(r.body()).get("tickets").get(0).get("ticket").asText()).encode();
  }

  /** An HTTP client for the tracker: for an https:// tracker, one that trusts the CA the admin token pins. */
  synchronized HttpClient http() throws IOException {
    if (http == null) {
      HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
      java.util.Optional<String> pin = GridToken.readFile(tokenFile).caPin();
      if (trackerUrl.startsWith("https://") && pin.isPresent()) {
        b.sslContext(org.cairn.core.security.PinnedTrust.context(pin.get()));
      }
      http = b.build();
    }
    return http;
  }

  /** The peer list from the tracker. */
  public JsonNode peers() throws IOException, InterruptedException {
    Result r = get("/api/v1/peers");
    if (r.status() != 200) {
      throw new IOException("GET /api/v1/peers answered " + r.status() + ": " + r.text());
    }
    return r.json();
  }

  /** Bytes of fragments all peers report holding (from their heartbeats). */
  public long usedOnPeers() throws IOException, InterruptedException {
    long used = 0;
    for (JsonNode p : peers()) {
      used += p.get("usedBytes").asLong();
    }
    return used;
  }

  /** The state the tracker reports for a peer, or null if it does not list it. */
  public String stateOf(String peerId) throws IOException, InterruptedException {
    for (JsonNode p : peers()) {
      if (p.get("id").asText().equals(peerId)) {
        return p.get("state").asText();
      }
    }
    return null;
  }

  /**
   * Desktop tests (browser, X server) need Debian packages a JDK-only machine lacks: there they are
   * skipped with a message naming the packages; with CAIRN_REQUIRE_DESKTOP_TESTS set (as .ci/run does)
   * a missing tool fails the test instead.
   */
  public static void requireTools(String message, Path... tools) {
    for (Path t : tools) {
      if (!Files.isExecutable(t)) {
        if (System.getenv("CAIRN_REQUIRE_DESKTOP_TESTS") != null) {
          throw new AssertionError(message + " (" + t + " is missing)");
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(false, message + " (" + t + " is missing; skipped)");
      }
    }
  }

  /** Polls a condition every 50 ms until it holds or the time is up. */
  public static void await(String what, Duration limit, Check condition) throws Exception {
    long deadline = System.nanoTime() + limit.toNanos();
    while (true) {
      if (condition.holds()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + limit.toMillis() + " ms waiting for " + what);
      }
      Thread.sleep(50);
    }
  }

  /** Like {@link #await(String, Duration, Check)}, saying what was last seen when it times out. */
  public static void await(String what, Duration limit, Check condition, Describe seen) throws Exception {
    try {
      await(what, limit, condition);
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; last seen: " + seen.describe(), e);
    }
  }

  /** What a waiting test last saw. */
  @FunctionalInterface
  public interface Describe {
    String describe() throws Exception;
  }

  /** A condition that may throw. */
  @FunctionalInterface
  public interface Check {
    boolean holds() throws Exception;
  }

  @Override
  public void close() {
    for (Node n : nodes) {
      n.process.destroyForcibly();
    }
    for (Node n : nodes) {
      try {
        n.process.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  public record Result(int status, JsonNode json, String text) {}

  /** One process of the grid. */
  public static final class Node {
    private final String name;
    private final Process process;
    private final Path out;
    private final Path err;
    private final long outStart;
    String peerId;
    String address;

    Node(String name, Process process, Path out, Path err, long outStart) {
      this.name = name;
      this.process = process;
      this.out = out;
      this.err = err;
      this.outStart = outStart;
    }

    public String peerId() {
      return peerId;
    }

    public String address() {
      return address;
    }

    public Process process() {
      return process;
    }

    /** SIGKILL, and wait for the process to be gone. */
    public void kill() throws InterruptedException {
      process.destroyForcibly();
      process.waitFor();
    }

    /** SIGTERM (graceful shutdown), and wait up to 30 s; a JVM stopped by SIGTERM exits with 143 after its shutdown hooks. */
    public int stop() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(name + " did not stop within 30 s of SIGTERM");
      }
      return process.exitValue();
    }

    /** What the process wrote on standard output so far. */
    public String stdout() throws IOException {
      return Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8) : "";
    }

    public String stderr() throws IOException {
      return Files.exists(err) ? Files.readString(err, StandardCharsets.UTF_8) : "";
    }

    Matcher awaitLine(Pattern pattern, Duration limit) throws IOException, InterruptedException {
      long deadline = System.nanoTime() + limit.toNanos();
      while (System.nanoTime() < deadline) {
        if (Files.exists(out)) {
          byte[] all = Files.readAllBytes(out);
          String text = new String(all, (int) Math.min(outStart, all.length), all.length - (int) Math.min(outStart, all.length),
              StandardCharsets.UTF_8);
          Matcher m = pattern.matcher(text);
          if (m.find()) {
            return m;
          }
        }
        if (!process.isAlive()) {
          throw new IllegalStateException(name + " exited with " + process.exitValue() + " before starting:\n" + stderr());
        }
        Thread.sleep(50);
      }
      throw new IllegalStateException(name + " did not start within " + limit.toSeconds() + " s:\n" + stderr());
    }
  }
}
