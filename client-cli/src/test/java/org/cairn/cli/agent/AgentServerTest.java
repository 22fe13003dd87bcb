package org.cairn.cli.agent;

import java.io.BufferedInputStream;
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
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.cairn.cli.agent.wire.AgentRequest;
import org.cairn.cli.agent.wire.AgentWire;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Only the agent's own user gets its commands run; the socket is never reachable by others, even briefly. */
class AgentServerTest {
  @TempDir
  Path dir;

  private record Answer(int code, String out, String err) {}

  private static Answer ask(Path socket, List<String> args) throws IOException {
    try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      ch.connect(UnixDomainSocketAddress.of(socket));
      DataOutputStream out = new DataOutputStream(Channels.newOutputStream(ch));
      new AgentRequest(args, "/", false).write(out);
      out.flush();
      ByteArrayOutputStream o = new ByteArrayOutputStream();
      ByteArrayOutputStream e = new ByteArrayOutputStream();
      int code = AgentWire.drain(new DataInputStream(new BufferedInputStream(Channels.newInputStream(ch))), new AgentWire.Sink() {
        @Override
        public void out(byte[] b, int len) {
          o.write(b, 0, len);
        }

        @Override
        public void err(byte[] b, int len) {
          e.write(b, 0, len);
        }
      });
      return new Answer(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }
  }

  @Test
  void aConnectionFromAnotherUserIsRefusedAndItsCommandNeverRuns() throws Exception {
    Path socket = dir.resolve("agent.sock");
    AtomicInteger ran = new AtomicInteger();
    AgentServer.Runner runner = (req, out, err) -> {
      ran.incrementAndGet();
      return 0;
    };
    // every peer seen as a stranger: what a connection from another uid gets
    try (AgentServer server = AgentServer.start(socket, runner, (peer, own) -> false)) {
      Answer a = ask(socket, List.of("versions"));
      assertThat(a.code()).isEqualTo(2);
      assertThat(a.err()).contains("serves another user");
      assertThat(ran).hasValue(0);
    }
  }

  @Test
  void theAgentsOwnUserIsLetIn() throws Exception {
    Path socket = dir.resolve("agent.sock");
    AtomicInteger ran = new AtomicInteger();
    try (AgentServer server = AgentServer.start(socket, (req, out, err) -> {
      ran.incrementAndGet();
      out.write("hi".getBytes(StandardCharsets.UTF_8));
      return 7;
    })) {
      Answer a = ask(socket, List.of("versions"));
      assertThat(a.code()).isEqualTo(7);
      assertThat(a.out()).isEqualTo("hi");
      assertThat(ran).hasValue(1);
    }
  }

  @Test
  void theSocketIsBoundInAPrivateDirectoryAndAppearsAlready0600() throws Exception {
    Path parent = Files.createDirectories(dir.resolve("run"));
    Files.setPosixFilePermissions(parent, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path socket = parent.resolve("agent.sock");
    try (AgentServer server = AgentServer.start(socket, (req, out, err) -> 0)) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket))).isEqualTo("rw-------");
      try (Stream<Path> s = Files.list(parent)) {
        assertThat(s.map(p -> p.getFileName().toString())).as("the bind directory is gone").containsExactly("agent.sock");
      }
      assertThat(ask(socket, List.of("x")).code()).isZero();
    }
    assertThat(socket).doesNotExist();
  }

  @Test
  void aNewSocketDirectoryIsCreated0700() throws Exception {
    Path socket = dir.resolve("fresh/agent.sock");
    try (AgentServer server = AgentServer.start(socket, (req, out, err) -> 0)) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent()))).isEqualTo("rwx------");
    }
  }
}
