package org.cairn.cli.context;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** The external programs a command runs (CRIU, Podman, DMTCP's): named by an environment variable, else found on PATH. */
public final class Executables {
  private Executables() {}

  /**
   * The program {@code env} names: {@code env[variable]} (a path) if set, else {@code name} on {@code env}'s PATH.
   * Throws with {@code howToGet} appended when there is none.
   */
  public static Path find(Map<String, String> env, String variable, String name, String howToGet) throws IOException {
    String named = variable == null ? null : env.get(variable);
    if (named != null && !named.isBlank()) {
      Path p = Path.of(named);
      if (!Files.isRegularFile(p) || !Files.isExecutable(p)) {
        throw new IOException(variable + "=" + named + " is not an executable file");
      }
      return p;
    }
    String path = env.get("PATH");
    for (String d : path == null ? new String[0] : path.split(File.pathSeparator)) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
        return Path.of(d, name);
      }
    }
    throw new IOException(name + " is not on PATH" + (variable == null ? "" : " and " + variable + " is not set") + ": " + howToGet);
  }
}
