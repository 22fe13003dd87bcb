package org.cairn.cli.output;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;

/**
 * This process's standard output as a command writes it: a write that fails (a reader that closed the pipe, a full
 * disk) fails with "cannot write standard output (why)", and the first such failure is kept, so a command whose text
 * went through a {@link PrintWriter} (which keeps write errors to itself) still fails instead of exiting 0
 * with its output lost. The native thin client and the JVM's thin path say the same.
 */
public final class StandardOutput extends OutputStream {
  private final OutputStream out;
  private volatile IOException failure;

  public StandardOutput(OutputStream out) {
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

  /**
   * {@code code}, or 1 with "cairn: COMMAND failed: cannot write standard output (why)" on standard error when the
   * command otherwise succeeded but its standard output could not be written (a reader that closed the pipe, a full
   * disk): the line and exit code the thin paths give for the same.
   */
  public static int exitCode(java.io.OutputStream stdout, int code, String command, PrintWriter err) {
    IOException failure = stdout instanceof StandardOutput s ? s.failure() : null;
    if (failure == null || code != 0) {
      return code;
    }
    err.println("cairn: " + (command == null ? "" : command + " failed: ") + failure.getMessage());
    err.flush();
    return 1;
  }

  /** The charset picocli writes standard output in ({@code sun.stdout.encoding} when the JVM set it, else the default). */
  public static Charset charset() {
    String name = System.getProperty("sun.stdout.encoding");
    try {
      return name == null ? Charset.defaultCharset() : Charset.forName(name);
    } catch (IllegalArgumentException e) {
      return Charset.defaultCharset();
    }
  }

  /** What the system said ("Broken pipe", "No space left on device"), as the native thin client prints strerror. */
  private static String why(IOException e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }
}
