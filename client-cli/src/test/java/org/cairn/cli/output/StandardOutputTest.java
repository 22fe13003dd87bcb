package org.cairn.cli.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StandardOutputTest {
  /** A standard output that takes {@code room} bytes, then fails every write as a full disk does. */
  private static final class Filling extends OutputStream {
    private final ByteArrayOutputStream taken = new ByteArrayOutputStream();
    private final int room;

    Filling(int room) {
      this.room = room;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (taken.size() + len > room) {
        throw new IOException("No space left on device");
      }
      taken.write(b, off, len);
    }
  }

  @Test
  void aFailedWriteSaysItWasStandardOutput_andIsKept() throws IOException {
    Filling disk = new Filling(3);
    StandardOutput out = new StandardOutput(disk);
    out.write("ok\n".getBytes(StandardCharsets.UTF_8));
    assertThat(out.failure()).isNull();
    assertThatThrownBy(() -> out.write("more\n".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IOException.class).hasMessage("cannot write standard output (No space left on device)");
    assertThatThrownBy(() -> out.write('x')).hasMessage("cannot write standard output (No space left on device)");
    assertThat(out.failure()).hasMessage("cannot write standard output (No space left on device)");
    assertThat(disk.taken.toString(StandardCharsets.UTF_8)).isEqualTo("ok\n");
  }

  @Test
  void aCommandWhoseTextWasLost_failsWithOneLine_otherwiseItsCodeStands() {
    StandardOutput lost = new StandardOutput(new Filling(0));
    // a PrintWriter keeps the write error to itself (checkError): the command itself returns 0
    PrintWriter text = new PrintWriter(lost, true);
    text.println("  step  created");
    assertThat(text.checkError()).isTrue();
    StringWriter err = new StringWriter();
    assertThat(StandardOutput.exitCode(lost, 0, "versions", new PrintWriter(err))).isEqualTo(1);
    assertThat(err).hasToString("cairn: versions failed: cannot write standard output (No space left on device)"
        + System.lineSeparator());

    // a command that failed already said why: its code and line stand
    StringWriter none = new StringWriter();
    assertThat(StandardOutput.exitCode(lost, 2, "versions", new PrintWriter(none))).isEqualTo(2);
    assertThat(none).hasToString("");

    // nothing lost: nothing said
    StandardOutput fine = new StandardOutput(new Filling(1 << 10));
    new PrintWriter(fine, true).println("  step  created");
    StringWriter quiet = new StringWriter();
    assertThat(StandardOutput.exitCode(fine, 0, "versions", new PrintWriter(quiet))).isZero();
    assertThat(quiet).hasToString("");
  }
}
