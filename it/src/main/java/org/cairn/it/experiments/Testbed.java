package org.cairn.it.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The emulated grid of it/testbed/grid.sh, driven from Java: every verb is the script's, so an
 * experiment does nothing a person could not repeat by hand. {@link #close()} always runs
 * {@code grid.sh down}.
 */
final class Testbed implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  /** What a command printed, and how it ended. */
  record Run(int exit, String out, String err, double seconds) {
    JsonNode json() throws IOException {
      String text = out.strip();
      int start = text.lastIndexOf("\n{");
      return JSON.readTree(start >= 0 ? text.substring(start + 1) : text);
    }

    Run check(String what) {
      if (exit != 0) {
        throw new IllegalStateException(what + " exited " + exit + ": " + err.strip() + " " + out.strip());
      }
      return this;
    }
  }

  private final Path script;
  private final Path dir;
  private boolean up;

  Testbed(Path root, Path dir) {
    this.script = root.resolve("it/testbed/grid.sh");
    this.dir = dir;
  }

  Path dir() {
    return dir;
  }

  /** {@code grid.sh up ARGS} (after a {@code down} of anything left over). */
  /** Options every testbed of this run is brought up with (experiment.sh --delay D: "--delay", "D"). */
  static List<String> extraUpArgs = List.of();

  void up(String... args) throws IOException, InterruptedException {
    upWithEnv(java.util.Map.of(), args);
  }

  /** {@link #up} with environment for grid.sh (e.g. REPAIR_GRACE for the tracker). */
  void upWithEnv(java.util.Map<String, String> env, String... args) throws IOException, InterruptedException {
    grid("down");
    List<String> a = new ArrayList<>(List.of("up"));
    a.addAll(List.of(args));
    a.addAll(extraUpArgs);
    a.add("--dir");
    a.add(dir.toString());
    gridWithEnv(env, a.toArray(String[]::new)).check("grid.sh up");
    up = true;
  }

  /** Runs {@code grid.sh VERB ARGS...} and waits for it. */
  Run grid(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
    cmd.addAll(List.of(args));
    return run(cmd, null);
  }

  /** As {@link #grid}, with extra environment (e.g. DONOR_ARGS for {@code start}). */
  Run gridWithEnv(java.util.Map<String, String> env, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
    cmd.addAll(List.of(args));
    return run(cmd, null, env);
  }

  /** The cairn CLI on a client host, with CAIRN_CLIENT_ID = the host's name (so bandwidth is measured per client). */
  Run cairn(String host, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("bash", script.toString(), "cairn", host));
    cmd.addAll(List.of(args));
    return run(cmd, host);
  }

  /** Starts the CLI on a client host without waiting (concurrent stores). */
  Process cairnAsync(String host, Path out, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("bash", script.toString(), "cairn", host));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(out.resolveSibling(out.getFileName() + ".err").toFile());
    pb.environment().put("CAIRN_TESTBED_DIR", dir.toString());
    pb.environment().put("CAIRN_CLIENT_ID", host);
    return pb.start();
  }

  /** Waits until the tracker lists {@code count} peers RUNNING (after restarts), or fails after {@code seconds}. */
  void awaitRunning(int count, int seconds) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    int running = 0;
    while (System.nanoTime() < deadline) {
      running = 0;
      for (JsonNode p : peers()) {
        if ("RUNNING".equals(p.path("state").asText())) {
          running++;
        }
      }
      if (running >= count) {
        return;
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("only " + running + " of " + count + " donors RUNNING after " + seconds + " s");
  }

  JsonNode peers() throws IOException, InterruptedException {
    Run r = grid("exec", "tracker", "curl", "-sf", "-H", "Authorization: Bearer " + Files.readString(dir.resolve("grid.token")).strip(),
        "http://10.77.0.1:7600/api/v1/peers");
    return r.exit() == 0 ? JSON.readTree(r.out()) : JSON.createArrayNode();
  }

  /** GET on the tracker's API from inside the grid. */
  JsonNode api(String path) throws IOException, InterruptedException {
    Run r = grid("exec", "tracker", "curl", "-sf", "-H", "Authorization: Bearer " + Files.readString(dir.resolve("grid.token")).strip(),
        "http://10.77.0.1:7600" + path).check("GET " + path);
    return JSON.readTree(r.out());
  }

  private Run run(List<String> cmd, String clientId) throws IOException, InterruptedException {
    return run(cmd, clientId, java.util.Map.of());
  }

  private Run run(List<String> cmd, String clientId, java.util.Map<String, String> env) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().putAll(env);
    pb.environment().put("CAIRN_TESTBED_DIR", dir.toString());
    if (clientId != null) {
      pb.environment().put("CAIRN_CLIENT_ID", clientId);
    }
    Path out = Files.createTempFile("tb", ".out");
    Path err = Files.createTempFile("tb", ".err");
    try {
      pb.redirectOutput(out.toFile()).redirectError(err.toFile());
      long t0 = System.nanoTime();
      int exit = pb.start().waitFor();
      double s = (System.nanoTime() - t0) / 1e9;
      return new Run(exit, Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8), s);
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    if (up) {
      grid("down", "--dir", dir.toString());
      up = false;
    }
  }
}
