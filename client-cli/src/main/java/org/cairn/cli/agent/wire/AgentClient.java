package org.cairn.cli.agent.wire;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * The thin side: sends one command to the agent and copies what comes back to this process's
 * standard output and error. Uses only the JDK, so the process starts in tens of milliseconds.
 */
public final class AgentClient {
  /** How a hand-over ended. */
  public sealed interface Outcome {}

  /** The agent ran the command: exit with its code. */
  public record Exited(int code) implements Outcome {}

  /**
   * The agent could not be used ({@code wroteOutput}: after some output had reached standard output,
   * so the command cannot simply run again here).
   */
  public record Unreachable(String why, boolean wroteOutput) implements Outcome {}

  /**
   * This process's standard output could not be written (a reader that closed the pipe, a full disk): the command
   * fails here with {@code why} ("cannot write standard output (Broken pipe)"), as it would in this process. (Standard
   * error that cannot be written is dropped: it carries diagnostics, not the command's result.)
   */
  public record OutputFailed(String why) implements Outcome {}

  /** A write to this process's standard output failed (not the agent's socket). */
  private static final class LocalWriteFailed extends IOException {
    LocalWriteFailed(IOException cause) {
      super("cannot write standard output (" + reason(cause) + ")", cause);
    }
  }

  private AgentClient() {}

  /** What the system said of a failed read or write ("Broken pipe"), or the exception's kind when it said nothing. */
  private static String reason(IOException e) {
    return e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName() : e.getMessage();
  }

  public static Outcome run(Path socket, List<String> args, boolean terminal) {
    SocketChannel ch;
    try {
      ch = SocketChannel.open(StandardProtocolFamily.UNIX);
      ch.connect(UnixDomainSocketAddress.of(socket));
    } catch (IOException | UnsupportedOperationException e) {
      return new Unreachable(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), false);
    }
    OutputStream stdout = new FileOutputStream(FileDescriptor.out);
    OutputStream stderr = new FileOutputStream(FileDescriptor.err);
    boolean[] wrote = {false};
    try (ch) {
      AgentRequest request =
          new AgentRequest(args, Path.of("").toAbsolutePath().toString(), terminal, AgentRequest.forwardedOf(System.getenv()));
      int code = AgentWire.exchange(ch, request, new AgentWire.Sink() {
        @Override
        public void out(byte[] b, int len) throws IOException {
          wrote[0] = true;
          try {
            stdout.write(b, 0, len);
          } catch (IOException e) {
            throw new LocalWriteFailed(e);
          }
        }

        /** Standard error that cannot be written: dropped (as System.err drops it); the agent's exit code stands. */
        private boolean errClosed;

        @Override
        public void err(byte[] b, int len) {
          if (errClosed) {
            return;
          }
          try {
            stderr.write(b, 0, len);
          } catch (IOException e) {
            errClosed = true;
          }
        }
      });
      return new Exited(code);
    } catch (LocalWriteFailed e) {
      return new OutputFailed(e.getMessage());
    } catch (IOException e) {
      return new Unreachable("the agent went away mid-command (" + reason(e) + ")", wrote[0]);
    }
  }
}
