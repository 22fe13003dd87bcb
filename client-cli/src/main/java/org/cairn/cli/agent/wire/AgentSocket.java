package org.cairn.cli.agent.wire;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where this user's agent listens when no socket is named: {@code $XDG_RUNTIME_DIR/cairn/agent.sock}
 * when that is set, else {@code agent.sock} in Cairn's user cache ({@code $XDG_CACHE_HOME/cairn}, else
 * {@code ~/.cache/cairn}; {@code -Duser.home} moves it). Both directories are the user's own (0700).
 * JDK classes only: the thin client's start loads it.
 */
public final class AgentSocket {
  private AgentSocket() {}

  public static Path standard() {
    return standard(System.getenv(), System.getProperty("user.home"));
  }

  /** The socket commands use: {@code flag} ({@code --agent}) when given, else {@code $CAIRN_AGENT_SOCKET}, else {@link #standard()}; absolute. */
  public static Path resolve(Path flag, Map<String, String> env) {
    if (flag != null) {
      return flag.toAbsolutePath();
    }
    String named = env.get("CAIRN_AGENT_SOCKET");
    return named != null && !named.isBlank() ? Path.of(named).toAbsolutePath() : standard().toAbsolutePath();
  }

  static Path standard(Map<String, String> env, String home) {
    String runtime = env.get("XDG_RUNTIME_DIR");
    if (runtime != null && !runtime.isBlank()) {
      return Path.of(runtime, "cairn", "agent.sock");
    }
    String cache = env.get("XDG_CACHE_HOME");
    Path dir = cache != null && !cache.isBlank() ? Path.of(cache) : Path.of(home, ".cache");
    return dir.resolve("cairn").resolve("agent.sock");
  }

  /**
   * Whether commands start and use this user's agent by themselves: not with {@code CAIRN_AGENT=off} (or {@code 0},
   * {@code false}, {@code no}), nor with {@code --no-agent} among the arguments (before {@code --}).
   */
  public static boolean selfStarting(String[] args, Map<String, String> env) {
    String setting = env.get("CAIRN_AGENT");
    if (setting != null && java.util.Set.of("off", "0", "false", "no").contains(setting.strip().toLowerCase(java.util.Locale.ROOT))) {
      return false;
    }
    for (String a : args) {
      if (a.equals("--")) {
        break;
      }
      if (a.equals("--no-agent")) {
        return false;
      }
    }
    return true;
  }
}
