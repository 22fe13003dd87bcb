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
      ByteArrayOutputStream o = new ByteArrayOutputStream();
      ByteArrayOutputStream e = new ByteArrayOutputStream();
      AgentWire.Sink sink = new AgentWire.Sink() {
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
      };
      int code = AgentWire.exchange(ch, CheckpointNotice.notifyRequest(reason), sink);
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
      IOException unsent = send(ch, CheckpointNotice.watchRequest(job));
      DataInputStream in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(ch), 4096));
      try {
        CheckpointNotice.awaitSubscribed(in);
      } catch (java.io.EOFException eof) {
        throw unsent != null ? unsent : eof;
      }
      if (unsent != null) {
        throw unsent;
      }
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

  /**
   * Writes {@code request}. An agent that refuses this connection answers and closes it at once, possibly before the
   * request is written: a failed write is returned rather than thrown, so the caller reads the refusal that is
   * already waiting and reports the write only when there is no answer.
   */
  private static IOException send(SocketChannel ch, AgentRequest request) throws IOException {
    try {
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(ch), 1024));
      request.write(out);
      out.flush();
      return null;
    } catch (IOException e) {
      return new IOException("the agent closed the connection before taking the request: " + e.getMessage(), e);
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
