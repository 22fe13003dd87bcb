package org.cairn.cli.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts this user's agent in the background for the commands after this one, once a command has run in
 * its own process because none was there: {@code cairn agent --self-started} through the launcher beside
 * the jar (its JVM flags and archive), in a session of its own ({@code setsid}: a Ctrl-C to the job's
 * terminal or the end of the job's process group does not reach it), its output appended to
 * {@code SOCKET.log}. Nothing is started while an agent holds the socket's lock (one warming up), and a
 * failure to start one is only logged: the command's own result stands.
 */
public final class AgentSpawn {
  private static final Logger LOG = LoggerFactory.getLogger(AgentSpawn.class);
  /** A log past this size is started afresh. */
  static final long LOG_LIMIT = 8L << 20;

  private AgentSpawn() {}

  public static void start(Path socket) {
    try {
      Path dir = org.cairn.client.keys.PrivateDirs.ensure(socket.toAbsolutePath().getParent());
      if (AgentLock.held(socket)) {
        return; // one is warming up, or serving (and declined this command)
      }
      JarStamp jar = JarStamp.ofRunning();
      if (!jar.path().toString().endsWith(".jar")) {
        return; // not run from a jar (tests, an IDE): nothing to start
      }
      Path log = dir.resolve(socket.getFileName() + ".log");
      if (Files.exists(log) && Files.size(log) > LOG_LIMIT) {
        Files.delete(log);
      }
      if (!Files.exists(log)) {
        Files.createFile(log, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(org.cairn.client.keys.PrivateDirs.SECRET_FILE));
      }
      ProcessBuilder pb = new ProcessBuilder(command(jar.path(), socket)).redirectErrorStream(true)
          .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
      pb.environment().keySet().removeAll(List.of("CAIRN_AGENT_ABSENT", "CAIRN_THIN_CLIENT", "CAIRN_AGENT_SOCKET"));
      Process p = pb.start();
      LOG.debug("started this user's agent (pid {}) on {}; its log: {}", p.pid(), socket, log);
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not start an agent on {}: {} (commands run in their own process)", socket, e.getMessage());
    }
  }

  /** setsid (where there is one), then the launcher beside the jar, else this JVM with the jar; then the agent's arguments. */
  static List<String> command(Path jar, Path socket) {
    List<String> cmd = new ArrayList<>();
    for (String s : List.of("/usr/bin/setsid", "/bin/setsid")) {
      if (Files.isExecutable(Path.of(s))) {
        cmd.add(s);
        break;
      }
    }
    Path launcher = jar.resolveSibling("cairn");
    if (Files.isRegularFile(launcher)) {
      cmd.addAll(List.of("sh", launcher.toString()));
    } else {
      String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.addAll(List.of(java, "-jar", jar.toString()));
    }
    cmd.addAll(List.of("agent", "--self-started", "--socket", socket.toAbsolutePath().toString()));
    return cmd;
  }
}
