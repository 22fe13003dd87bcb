package org.cairn.cli.agent.wire;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.cairn.cli.agent.AgentServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AgentWireTest {
  @TempDir
  Path dir;

  @Test
  void requestRoundTrips() throws IOException {
    AgentRequest r = new AgentRequest(List.of("store", "ckpt.img", "--app", "h\u00e9at", "--node", ""), "/home/u/job", true);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    r.write(new DataOutputStream(b));
    assertThat(AgentRequest.read(new DataInputStream(new ByteArrayInputStream(b.toByteArray())))).isEqualTo(r);
  }

  @Test
  void aRequestCarriesTheClientsCairnVariablesOnly() throws IOException {
    java.util.Map<String, String> env = AgentRequest.forwardedOf(java.util.Map.of("CAIRN_TRACKER", "https://t:7600", "CAIRN_TOKEN",
        "secret-token-0123456789", "HOME", "/root", "PATH", "/bin", "CAIRN_AGENT_SOCKET", "/s", "CAIRN_JAVA_OPTS", "-Xmx1g",
        "CAIRN_AGENT", "on", "CAIRN_THIN_CLIENT", "java"));
    assertThat(env).containsOnlyKeys("CAIRN_TRACKER", "CAIRN_TOKEN");
    AgentRequest r = new AgentRequest(List.of("versions"), "/home/u", false, env);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    r.write(new DataOutputStream(b));
    assertThat(AgentRequest.read(new DataInputStream(new ByteArrayInputStream(b.toByteArray())))).isEqualTo(r);
  }

  @Test
  void aRequestNamingOtherVariablesOrTooManyIsRefused() throws IOException {
    assertThatThrownBy(() -> AgentRequest.read(stream(List.of("versions"), java.util.Map.entry("LD_PRELOAD", "/tmp/x.so"))))
        .isInstanceOf(IOException.class).hasMessageContaining("LD_PRELOAD");
    assertThatThrownBy(() -> AgentRequest.read(stream(List.of("versions"), java.util.Map.entry("CAIRN_TOKEN", "a"),
        java.util.Map.entry("CAIRN_TOKEN", "b")))).isInstanceOf(IOException.class).hasMessageContaining("twice");
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    DataOutputStream d = new DataOutputStream(b);
    d.writeInt(AgentRequest.MAGIC);
    d.writeInt(AgentRequest.VERSION);
    d.writeUTF("/");
    d.writeBoolean(false);
    d.writeInt(0);
    d.writeInt(Integer.MAX_VALUE);
    assertThatThrownBy(() -> AgentRequest.read(new DataInputStream(new ByteArrayInputStream(b.toByteArray()))))
        .isInstanceOf(IOException.class).hasMessageContaining("bad environment count");
  }

  /** A request as a hand-written client might send it, with {@code vars} as given. */
  @SafeVarargs
  private static DataInputStream stream(List<String> args, java.util.Map.Entry<String, String>... vars) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    DataOutputStream d = new DataOutputStream(b);
    d.writeInt(AgentRequest.MAGIC);
    d.writeInt(AgentRequest.VERSION);
    d.writeUTF("/");
    d.writeBoolean(false);
    d.writeInt(args.size());
    for (String a : args) {
      d.writeUTF(a);
    }
    d.writeInt(vars.length);
    for (java.util.Map.Entry<String, String> v : vars) {
      d.writeUTF(v.getKey());
      d.writeUTF(v.getValue());
    }
    return new DataInputStream(new ByteArrayInputStream(b.toByteArray()));
  }

  @Test
  void refusesWhatIsNotARequest() throws IOException {
    assertThatThrownBy(() -> AgentRequest.read(new DataInputStream(new ByteArrayInputStream("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.UTF_8)))))
        .isInstanceOf(IOException.class).hasMessageContaining("not a cairn agent request");
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    DataOutputStream d = new DataOutputStream(b);
    d.writeInt(AgentRequest.MAGIC);
    d.writeInt(99);
    assertThatThrownBy(() -> AgentRequest.read(new DataInputStream(new ByteArrayInputStream(b.toByteArray()))))
        .hasMessageContaining("wire version 99");
    assertThatThrownBy(() -> new AgentRequest(List.of("versions"), "relative/dir", false)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void truncatedAndRandomRequestsFailCleanly() throws IOException {
    AgentRequest r = new AgentRequest(List.of("fetch", "--app", "a", "--node", "n", "-o", "x"), "/tmp", false);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    r.write(new DataOutputStream(b));
    byte[] whole = b.toByteArray();
    for (int cut = 0; cut < whole.length; cut++) {
      byte[] part = java.util.Arrays.copyOf(whole, cut);
      assertThatThrownBy(() -> AgentRequest.read(new DataInputStream(new ByteArrayInputStream(part)))).isInstanceOf(IOException.class);
    }
    Random rnd = new Random(19);
    for (int i = 0; i < 2000; i++) {
      byte[] junk = whole.clone();
      junk[rnd.nextInt(junk.length)] ^= (byte) (1 + rnd.nextInt(255));
      try {
        AgentRequest.read(new DataInputStream(new ByteArrayInputStream(junk)));
      } catch (IOException expected) {
        // a clear refusal; anything else (a runtime exception) fails the test
      }
    }
  }

  @Test
  void framesCarryBothStreamsAndTheExitCode() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    DataOutputStream wire = new DataOutputStream(b);
    OutputStream out = new AgentWire.FrameStream(wire, AgentWire.OUT);
    OutputStream err = new AgentWire.FrameStream(wire, AgentWire.ERR);
    out.write("data ".getBytes(StandardCharsets.UTF_8));
    err.write("progress".getBytes(StandardCharsets.UTF_8));
    out.write('!');
    AgentWire.exit(wire, 3);
    ByteArrayOutputStream gotOut = new ByteArrayOutputStream();
    ByteArrayOutputStream gotErr = new ByteArrayOutputStream();
    int code = AgentWire.drain(new DataInputStream(new ByteArrayInputStream(b.toByteArray())), new AgentWire.Sink() {
      @Override
      public void out(byte[] bytes, int len) {
        gotOut.write(bytes, 0, len);
      }

      @Override
      public void err(byte[] bytes, int len) {
        gotErr.write(bytes, 0, len);
      }
    });
    assertThat(code).isEqualTo(3);
    assertThat(gotOut.toString(StandardCharsets.UTF_8)).isEqualTo("data !");
    assertThat(gotErr.toString(StandardCharsets.UTF_8)).isEqualTo("progress");
  }

  @Test
  void serverRunsRequestsAndRefusesASecondAgentOnItsSocket() throws Exception {
    Path socket = dir.resolve("s").resolve("agent.sock");
    try (AgentServer server = AgentServer.start(socket, (req, out, err) -> {
      out.write(String.join(" ", req.args()).getBytes(StandardCharsets.UTF_8));
      return req.args().size();
    })) {
      assertThat(java.nio.file.Files.getPosixFilePermissions(socket)).containsExactlyInAnyOrder(
          java.nio.file.attribute.PosixFilePermission.OWNER_READ, java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
      assertThatThrownBy(() -> AgentServer.start(socket, (req, out, err) -> 0)).hasMessageContaining("another agent");
      assertThat(AgentClient.run(dir.resolve("nothing.sock"), List.of("versions"), false)).isInstanceOf(AgentClient.Unreachable.class);
    }
    assertThat(socket).doesNotExist();
  }

  /** A server that accepts one connection, hands it to {@code answer}, closes it, and only then lets the client go on. */
  private java.nio.channels.SocketChannel connectedAfterTheServerClosed(Path socket, ThrowingAnswer answer) throws Exception {
    try (java.nio.channels.ServerSocketChannel server = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
      server.bind(java.net.UnixDomainSocketAddress.of(socket));
      java.nio.channels.SocketChannel client = java.nio.channels.SocketChannel.open(java.net.UnixDomainSocketAddress.of(socket));
      try (java.nio.channels.SocketChannel ch = server.accept()) {
        answer.answer(new DataOutputStream(java.nio.channels.Channels.newOutputStream(ch)));
      }
      return client;
    }
  }

  private interface ThrowingAnswer {
    void answer(DataOutputStream wire) throws IOException;
  }

  @Test
  void aRefusalSentBeforeTheRequestIsWrittenIsStillRead() throws Exception {
    try (java.nio.channels.SocketChannel ch = connectedAfterTheServerClosed(dir.resolve("a.sock"), wire -> {
      new AgentWire.FrameStream(wire, AgentWire.ERR).write("cairn agent: this agent serves another user\n".getBytes(StandardCharsets.UTF_8));
      AgentWire.exit(wire, 2);
    })) {
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code = AgentWire.exchange(ch, new AgentRequest(List.of("versions"), "/", false), new AgentWire.Sink() {
        @Override
        public void out(byte[] b, int len) {
          throw new AssertionError("no output expected");
        }

        @Override
        public void err(byte[] b, int len) {
          err.write(b, 0, len);
        }
      });
      assertThat(code).isEqualTo(2);
      assertThat(err.toString(StandardCharsets.UTF_8)).contains("serves another user");
    }
  }

  @Test
  void aServerThatClosesUnansweredIsReportedAsNotTakingTheRequest() throws Exception {
    try (java.nio.channels.SocketChannel ch = connectedAfterTheServerClosed(dir.resolve("b.sock"), wire -> { })) {
      assertThatThrownBy(() -> AgentWire.exchange(ch, new AgentRequest(List.of("versions"), "/", false), new AgentWire.Sink() {
        @Override
        public void out(byte[] b, int len) { }

        @Override
        public void err(byte[] b, int len) { }
      })).isInstanceOf(IOException.class).hasMessageContaining("closed the connection before taking the request");
    }
  }
}
