package org.cairn.cli.condor;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.cairn.cli.agent.wire.AgentRequest;
import org.cairn.cli.agent.wire.AgentSocket;
import org.cairn.cli.agent.wire.AgentWire;

/**
 * Runs one {@code cairn} command line for the plug-in and keeps what it printed: handed to this user's running agent
 * when there is one ({@code CAIRN_AGENT_SOCKET}, else {@link AgentSocket#standard()}; not with {@code CAIRN_AGENT=off}),
 * as {@code cairn store} and {@code fetch} are, else in this process. The plug-in never starts an agent: on a
 * execute point that would leave a daemon behind the job. The agent side loads JDK classes only; the first command that
 * runs here loads the CLI.
 */
public interface CommandRunner extends AutoCloseable {
  /** A finished command: its exit code and what it wrote. */
  record Result(int code, String out, String err) {}

  Result run(List<String> args);

  /** Ends the run: the grids commands opened here are closed (their catalog records stored first). */
  @Override
  void close();

  /** The runner for this environment: the agent's when its socket is there, else this process's. */
  static CommandRunner forEnvironment(Map<String, String> env) {
    String setting = env.get("CAIRN_AGENT");
    boolean off = setting != null && Set.of("off", "0", "false", "no").contains(setting.strip().toLowerCase(Locale.ROOT));
    String named = env.get("CAIRN_AGENT_SOCKET");
    Path socket = named != null && !named.isBlank() ? Path.of(named) : off ? null : AgentSocket.standard();
    return socket != null && Files.exists(socket) ? new Agent(socket, env) : new InProcess(env);
  }

  /** Commands run by the agent at {@code socket}; when it cannot be reached, here. */
  final class Agent implements CommandRunner {
    /** The commands an agent runs for a client (Argv.HANDED): others run here. */
    private static final Set<String> HANDED = Set.of("store", "fetch", "versions");
    private final Path socket;
    private final Map<String, String> env;
    private CommandRunner fallback;
    private boolean gone;

    Agent(Path socket, Map<String, String> env) {
      this.socket = socket;
      this.env = env;
    }

    @Override
    public Result run(List<String> args) {
      if (!gone && args.stream().anyMatch(HANDED::contains)) {
        try {
          return handOver(args);
        } catch (IOException e) {
          gone = true; // the output was kept, not printed: the command runs again here from the start
        }
      }
      if (fallback == null) {
        fallback = new InProcess(env);
      }
      return fallback.run(args);
    }

    @Override
    public void close() {
      if (fallback != null) {
        fallback.close();
      }
    }

    private Result handOver(List<String> args) throws IOException {
      try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
        ch.connect(UnixDomainSocketAddress.of(socket));
        AgentRequest request = new AgentRequest(args, Path.of("").toAbsolutePath().toString(), false, AgentRequest.forwardedOf(env));
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int code = AgentWire.exchange(ch, request, new AgentWire.Sink() {
          @Override
          public void out(byte[] b, int len) {
            stdout.write(b, 0, len);
          }

          @Override
          public void err(byte[] b, int len) {
            stderr.write(b, 0, len);
          }
        });
        return new Result(code, stdout.toString(StandardCharsets.UTF_8), stderr.toString(StandardCharsets.UTF_8));
      } catch (UnsupportedOperationException e) {
        throw new IOException(e);
      }
    }
  }

  /**
   * Commands run in this process ({@code CairnCli}, loaded on the first), sharing the grids they open as an agent's do:
   * the files of one invocation are one grid's connections, probes and caches, not one each.
   */
  final class InProcess implements CommandRunner {
    private final Map<String, String> env;
    private AutoCloseable grids;

    InProcess(Map<String, String> env) {
      this.env = env;
    }

    @Override
    public Result run(List<String> args) {
      if (grids == null) {
        grids = InProcessCli.pool();
      }
      return InProcessCli.run(args, env, grids);
    }

    @Override
    public void close() {
      if (grids != null) {
        try {
          grids.close();
        } catch (Exception e) {
          // the commands have answered; a grid that fails to close is not their failure
        }
        grids = null;
      }
    }
  }
}
