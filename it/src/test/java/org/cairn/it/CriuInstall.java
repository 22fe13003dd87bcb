package org.cairn.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where the CRIU tests find CRIU: $CAIRN_CRIU_HOME/sbin/criu, else ~/.cache/cairn/criu/sbin/criu (where
 * third_party/criu/build.sh puts it for .ci/run); not criu on PATH, since Debian 12's 3.17 cannot initialise on
 * current kernels. CRIU needs root. Without either the tests are skipped with a message, unless
 * CAIRN_REQUIRE_CRIU_TESTS is set (as .ci/run does); when .ci/run builds CRIU beside the Maven build,
 * CAIRN_CRIU_STATUS names the file its exit status goes to, and the tests wait for it.
 */
final class CriuInstall {
  private CriuInstall() {}

  /** The CRIU binary, or the test is skipped (or fails, in CI). */
  static Path binary() throws IOException, InterruptedException {
    awaitBuild();
    String home = System.getenv("CAIRN_CRIU_HOME");
    Path[] candidates = {
        home == null || home.isBlank() ? null : Path.of(home, "sbin", "criu"),
        Path.of(System.getProperty("user.home"), ".cache", "cairn", "criu", "sbin", "criu")};
    String missing = "CRIU is not installed: build it with third_party/criu/build.sh ~/.cache/cairn/criu (about 30 s; the "
        + "Debian packages it needs are listed in it)";
    for (Path c : candidates) {
      if (c != null && Files.isExecutable(c)) {
        return "root".equals(System.getProperty("user.name")) ? c : unavailable("CRIU needs root");
      }
    }
    return unavailable(missing);
  }

  private static void awaitBuild() throws IOException, InterruptedException {
    String status = System.getenv("CAIRN_CRIU_STATUS");
    if (status == null || status.isBlank()) {
      return;
    }
    Path s = Path.of(status);
    long deadline = System.nanoTime() + Duration.ofMinutes(20).toNanos();
    while (!Files.exists(s) && System.nanoTime() < deadline) {
      Thread.sleep(1000); // the build runs beside this one; nothing here to await but its status file
    }
    if (!Files.exists(s)) {
      throw new AssertionError("CRIU's build (status file " + s + ") did not finish within 20 minutes");
    }
    if (!Files.readString(s).strip().equals("0")) {
      throw new AssertionError("CRIU's build failed (status " + Files.readString(s).strip() + "); see its log beside " + s);
    }
  }

  private static Path unavailable(String message) {
    if (System.getenv("CAIRN_REQUIRE_CRIU_TESTS") != null) {
      throw new AssertionError(message);
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(false, message + "; skipped");
    return null;
  }
}
