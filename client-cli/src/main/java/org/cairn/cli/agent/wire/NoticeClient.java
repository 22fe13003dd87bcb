package org.cairn.cli.agent.wire;

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
import java.nio.file.Path;

/**
 * The two sides of checkpoint notices that talk to this user's agent: {@link #notify} (the donor app, a script)
 * and {@link #watch} (a job). JDK classes only: the donor app carries this package and nothing else of the CLI.
 */
public final class NoticeClient {
  private NoticeClient() {}

  /** The agent's answer to a notify: its exit code and what it wrote (one JSON object on {@code out}). */
  public record Answer(int code, String out, String err) {}

  /** Gets each notice of a watch. */
  public interface Listener {
    void notice(CheckpointNotice notice);
  }

  /**
   * Tells the agent at {@code socket} to have its jobs checkpoint now; its answer, or an IOException when no agent
   * answers there (none runs: nothing to tell).
   */
  public static Answer notify(Path socket, String reason) throws IOException {
    try (SocketChannel ch = connect(socket)) {
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(ch), 1024));
      CheckpointNotice.notifyRequest(reason).write(out);
      out.flush();
      ByteArrayOutputStream o = new ByteArrayOutputStream();
      ByteArrayOutputStream e = new ByteArrayOutputStream();
      int code = AgentWire.drain(new DataInputStream(new BufferedInputStream(Channels.newInputStream(ch))), new AgentWire.Sink() {
        @Override
        public void out(byte[] b, int len) {
          if (o.size() < 64 << 10) {
            o.write(b, 0, len);
          }
        }

        @Override
        public void err(byte[] b, int len) {
          if (e.size() < 64 << 10) {
            e.write(b, 0, len);
          }
        }
      });
      return new Answer(code, o.toString(StandardCharsets.UTF_8).strip(), e.toString(StandardCharsets.UTF_8).strip());
    }
  }

  /**
   * Watches the agent at {@code socket} for notices as {@code job}: returns once subscribed, with the connection;
   * {@link Watch#run} then hands each notice to the listener until the connection ends. Throws when no agent answers
   * or it does not take the watch.
   */
  public static Watch watch(Path socket, String job) throws IOException {
    SocketChannel ch = connect(socket);
    try {
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(ch), 1024));
      CheckpointNotice.watchRequest(job).write(out);
      out.flush();
      DataInputStream in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(ch), 4096));
      CheckpointNotice.awaitSubscribed(in);
      return new Watch(ch, in);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /** A subscribed watch. */
  public static final class Watch implements java.io.Closeable {
    private final SocketChannel ch;
    private final DataInputStream in;

    Watch(SocketChannel ch, DataInputStream in) {
      this.ch = ch;
      this.in = in;
    }

    /** Hands notices to {@code listener} until the agent goes away (or {@link #close}); the IOException says why it ended. */
    public void run(Listener listener) throws IOException {
      try (ch) {
        while (true) {
          listener.notice(CheckpointNotice.read(in));
        }
      }
    }

    @Override
    public void close() throws IOException {
      ch.close();
    }
  }

  private static SocketChannel connect(Path socket) throws IOException {
    SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      ch.connect(UnixDomainSocketAddress.of(socket));
      return ch;
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
    }
  }
}
