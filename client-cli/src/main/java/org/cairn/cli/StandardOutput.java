package org.cairn.cli;

import java.io.IOException;
import java.io.OutputStream;

/**
 * This process's standard output as a command writes it: a write that fails (a reader that closed the pipe, a full
 * disk) fails with "cannot write standard output (why)", and the first such failure is kept, so a command whose text
 * went through a {@link java.io.PrintWriter} (which keeps write errors to itself) still fails instead of exiting 0
 * with its output lost. The native thin client and the JVM's thin path say the same.
 */
final class StandardOutput extends OutputStream {
  private final OutputStream out;
  private volatile IOException failure;

  StandardOutput(OutputStream out) {
    this.out = out;
  }

  @Override
  public void write(int b) throws IOException {
    try {
      out.write(b);
    } catch (IOException e) {
      throw failed(e);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      throw failed(e);
    }
  }

  @Override
  public void flush() throws IOException {
    try {
      out.flush();
    } catch (IOException e) {
      throw failed(e);
    }
  }

  @Override
  public void close() throws IOException {
    flush(); // standard output stays open: the process may print more (a failure's line goes to standard error)
  }

  /** The first write that failed, as it was reported ("cannot write standard output (why)"); null if none did. */
  IOException failure() {
    return failure;
  }

  private IOException failed(IOException e) {
    IOException f = new IOException("cannot write standard output (" + why(e) + ")", e);
    if (failure == null) {
      failure = f;
    }
    return f;
  }

  /** What the system said ("Broken pipe", "No space left on device"), as the native thin client prints strerror. */
  static String why(IOException e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }
}
