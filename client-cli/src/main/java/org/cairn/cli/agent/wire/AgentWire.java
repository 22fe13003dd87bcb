package org.cairn.cli.agent.wire;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The agent's answer to one request, as frames: {@code OUT} and {@code ERR} carry bytes for the
 * client's standard output and error as the command writes them (a fetch to standard output streams
 * its data this way), and one {@code EXIT} ends it with the exit code. Each frame is a type byte and
 * a 32-bit length, then the bytes (EXIT: the code as 32 bits).
 */
public final class AgentWire {
  public static final byte OUT = 1;
  public static final byte ERR = 2;
  static final byte EXIT = 3;
  static final int MAX_FRAME = 8 << 20;

  private AgentWire() {}

  /** One of the agent's two streams: each write becomes a frame on the shared connection. */
  public static final class FrameStream extends OutputStream {
    private final DataOutputStream wire;
    private final byte type;

    public FrameStream(DataOutputStream wire, byte type) {
      this.wire = wire;
      this.type = type;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      while (len > 0) {
        int n = Math.min(len, MAX_FRAME);
        synchronized (wire) {
          wire.writeByte(type);
          wire.writeInt(n);
          wire.write(b, off, n);
        }
        off += n;
        len -= n;
      }
    }

    @Override
    public void flush() throws IOException {
      synchronized (wire) {
        wire.flush();
      }
    }
  }

  public static void exit(DataOutputStream wire, int code) throws IOException {
    synchronized (wire) {
      wire.writeByte(EXIT);
      wire.writeInt(code);
      wire.flush();
    }
  }

  /** What the client's reader sees. */
  public interface Sink {
    void out(byte[] b, int len) throws IOException;

    void err(byte[] b, int len) throws IOException;
  }

  /** Copies frames to {@code sink} until EXIT; returns its code. */
  public static int drain(DataInputStream in, Sink sink) throws IOException {
    byte[] buf = new byte[64 << 10];
    while (true) {
      byte type = in.readByte();
      if (type == EXIT) {
        return in.readInt();
      }
      int len = in.readInt();
      if (len < 0 || len > MAX_FRAME || type != OUT && type != ERR) {
        throw new IOException("bad frame from the agent (type " + type + ", " + len + " bytes)");
      }
      if (buf.length < len) {
        buf = new byte[len];
      }
      in.readFully(buf, 0, len);
      if (type == OUT) {
        sink.out(buf, len);
      } else {
        sink.err(buf, len);
      }
    }
  }

  /**
   * Sends {@code request} on {@code ch} and copies the answer to {@code sink} until EXIT; returns its code. An agent
   * that refuses the connection (another user) answers and closes at once, possibly before the request is written:
   * the answer already waiting is still read, and the failed write is what is thrown only when there is none.
   */
  public static int exchange(java.nio.channels.SocketChannel ch, AgentRequest request, Sink sink) throws IOException {
    IOException unsent = null;
    try {
      DataOutputStream out = new DataOutputStream(
          new java.io.BufferedOutputStream(java.nio.channels.Channels.newOutputStream(ch), 8192));
      request.write(out);
      out.flush();
    } catch (IOException e) {
      unsent = new IOException("the agent closed the connection before taking the request: " + e.getMessage(), e);
    }
    try {
      return drain(new DataInputStream(new java.io.BufferedInputStream(java.nio.channels.Channels.newInputStream(ch), 64 << 10)), sink);
    } catch (java.io.EOFException eof) {
      throw unsent != null ? unsent : eof;
    }
  }
}
