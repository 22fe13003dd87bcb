package org.cairn.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.cairn.tracker.auth.TokenRecord;
import org.cairn.tracker.auth.TokenStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code token create --role donor}: one use unless --uses says a number or 'unlimited'. */
class TokenCommandTest {
  @TempDir
  Path dir;

  /** The last token printed on stdout. */
  private String printed = "";

  private int create(StringWriter err, String... args) {
    CommandLine cl = new CommandLine(new TokenCommand());
    StringWriter out = new StringWriter();
    cl.setErr(new PrintWriter(err, true));
    cl.setOut(new PrintWriter(out, true));
    try {
      return run(cl, args);
    } finally {
      printed = out.toString().strip();
    }
  }

  private int run(CommandLine cl, String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "create";
    all[1] = "--data";
    all[2] = dir.toString();
    System.arraycopy(args, 0, all, 3, args.length);
    return cl.execute(all);
  }

  /** The record of the token just printed. */
  private TokenRecord last() throws IOException {
    String id = printed.substring(TokenStore.PREFIX.length(), TokenStore.PREFIX.length() + 16);
    return new TokenStore(dir).list().stream().filter(t -> t.id().equals(id)).findFirst().orElseThrow();
  }

  @Test
  void aDonorTokenHasOneUseUnlessToldOtherwise() throws IOException {
    StringWriter err = new StringWriter();
    assertThat(create(err, "--role", "donor")).as(err.toString()).isZero();
    assertThat(last().uses()).isEqualTo(1);
    assertThat(create(err, "--role", "donor", "--uses", "6")).isZero();
    assertThat(last().uses()).isEqualTo(6);
    assertThat(create(err, "--role", "donor", "--uses", "unlimited")).isZero();
    assertThat(last().uses()).isNull();
  }

  @Test
  void aBadUsesIsRefusedInOneLine() {
    StringWriter err = new StringWriter();
    assertThat(create(err, "--role", "donor", "--uses", "0")).isNotZero();
    assertThat(err.toString()).contains("--uses takes a number >= 1 or 'unlimited', was '0'");
    StringWriter err2 = new StringWriter();
    assertThat(create(err2, "--role", "client", "--uses", "2")).isNotZero();
    assertThat(err2.toString()).contains("applies to donor tokens");
  }
}
