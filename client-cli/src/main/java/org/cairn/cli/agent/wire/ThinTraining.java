package org.cairn.cli.agent.wire;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The build's training run for {@code target/cairn-thin.jsa}, the class-data-sharing archive of the
 * thin launcher jar ({@code cairn-thin.jar}): one command handed over a Unix domain socket to a
 * stand-in agent here that answers with a line on each stream and exit 0, so the archive holds what
 * a thin {@code cairn} process loads (the socket channel, the request, the answer's frames) and
 * nothing else. A small archive maps faster than the full one (~15 ms a command).
 */
public final class ThinTraining {
  private ThinTraining() {}

  public static void main(String[] args) throws Exception {
    // what the entry point asks before it hands a command over: the environment, and whether a terminal is attached
    boolean terminal = System.getenv("CAIRN_AGENT_SOCKET") != null && System.console() != null;
    Path dir = Files.createTempDirectory("cairn-thin-training");
    Path socket = dir.resolve("agent.sock");
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      server.bind(UnixDomainSocketAddress.of(socket));
      Thread agent = new Thread(() -> answer(server), "stand-in-agent");
      agent.start();
      AgentClient.Outcome o = AgentClient.run(socket, List.of("versions", "--app", "training", "--node", "n"), terminal);
      agent.join();
      if (!(o instanceof AgentClient.Exited e) || e.code() != 0) {
        throw new IllegalStateException("the thin training command did not run: " + o);
      }
    } finally {
      Files.deleteIfExists(socket);
      Files.deleteIfExists(dir);
    }
  }

  private static void answer(ServerSocketChannel server) {
    try (SocketChannel ch = server.accept()) {
      AgentRequest request = AgentRequest.read(new DataInputStream(new BufferedInputStream(Channels.newInputStream(ch))));
      DataOutputStream wire = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(ch), 64 << 10));
      new AgentWire.FrameStream(wire, AgentWire.OUT).write(("thin training: " + request.args().get(0) + "\n").getBytes(StandardCharsets.UTF_8));
      new AgentWire.FrameStream(wire, AgentWire.ERR).write("thin training: no grid here\n".getBytes(StandardCharsets.UTF_8));
      AgentWire.exit(wire, 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
