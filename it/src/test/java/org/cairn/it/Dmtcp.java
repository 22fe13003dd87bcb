package org.cairn.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where the DMTCP tests find DMTCP: $CAIRN_DMTCP_HOME/bin, else ~/.cache/cairn/dmtcp/bin (where
 * third_party/dmtcp/build.sh puts it for .ci/run), else dmtcp_launch on PATH. Without it the tests
 * are skipped with a message, unless CAIRN_REQUIRE_DMTCP_TESTS is set (as .ci/run does); when
 * .ci/run builds DMTCP beside the Maven build, CAIRN_DMTCP_STATUS names the file its exit status
 * goes to, and the tests wait for it.
 */
final class Dmtcp {
  private Dmtcp() {}

  /** A program with state in memory: a counter and a running hash of it, one line per tick ({@code tick I ACC}). */
  static final String COUNTER = String.join("\n",
      "import time",
      "i, acc = 0, 0",
      "while i < 1000000:",
      "    acc = (acc * 31 + i) % 1000000007",
      "    print(f'tick {i} {acc}', flush=True)",
      "    i += 1",
      "    time.sleep(0.05)",
      "");

  /** The directory holding dmtcp_launch and dmtcp_restart, or the test is skipped (or fails, in CI). */
  static Path bin() throws IOException, InterruptedException {
    String status = System.getenv("CAIRN_DMTCP_STATUS");
    if (status != null && !status.isBlank()) {
      Path s = Path.of(status);
      long deadline = System.nanoTime() + Duration.ofMinutes(20).toNanos();
      while (!Files.exists(s) && System.nanoTime() < deadline) {
        Thread.sleep(1000); // the build runs beside this one; nothing here to await but its status file
      }
      if (!Files.exists(s)) {
        throw new AssertionError("DMTCP's build (status file " + s + ") did not finish within 20 minutes");
      }
      if (!Files.readString(s).strip().equals("0")) {
        throw new AssertionError("DMTCP's build failed (status " + Files.readString(s).strip() + "); see its log beside " + s);
      }
    }
    String home = System.getenv("CAIRN_DMTCP_HOME");
    Path[] candidates = {
        home == null || home.isBlank() ? null : Path.of(home, "bin"),
        Path.of(System.getProperty("user.home"), ".cache", "cairn", "dmtcp", "bin"),
        onPath("dmtcp_launch")};
    for (Path c : candidates) {
      if (c != null && Files.isExecutable(c.resolve("dmtcp_launch")) && Files.isExecutable(c.resolve("dmtcp_restart"))) {
        return c;
      }
    }
    String message = "DMTCP is not installed: build it with third_party/dmtcp/build.sh ~/.cache/cairn/dmtcp (about 4-6 minutes)";
    if (System.getenv("CAIRN_REQUIRE_DMTCP_TESTS") != null) {
      throw new AssertionError(message);
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(false, message + "; skipped");
    return null;
  }

  /**
   * The Python interpreter itself ({@code sys.executable} of {@code python3} on PATH): a version manager's shim (pyenv's
   * is a bash script that forks helpers before it execs the interpreter) would be checkpointed too, and its helpers hang
   * under DMTCP, leaving processes that outlive the test.
   */
  static String python() throws IOException, InterruptedException {
    Process p = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
    if (p.waitFor() != 0 || out.isEmpty() || !Files.isExecutable(Path.of(out))) {
      throw new AssertionError("python3 on PATH does not say where its interpreter is: " + out);
    }
    return out;
  }

  private static Path onPath(String name) {
    String path = System.getenv("PATH");
    for (String d : path == null ? new String[0] : path.split(java.io.File.pathSeparator)) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
        return Path.of(d);
      }
    }
    return null;
  }
}
