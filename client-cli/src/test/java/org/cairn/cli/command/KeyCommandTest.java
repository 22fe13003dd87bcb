package org.cairn.cli.command;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.cairn.cli.CairnCli;
import org.cairn.core.crypto.AppKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code cairn key create|export|import|list} in-process; no grid is needed. */
class KeyCommandTest {
  @TempDir
  Path dir;

  private record Run(int exit, String out, String err) {}

  private Run cairn(Path keys, String... args) {
    List<String> all = new ArrayList<>(List.of("--key-dir", keys.toString()));
    all.addAll(List.of(args));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = CairnCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return new Run(cli.execute(all.toArray(String[]::new)), out.toString(), err.toString());
  }

  @Test
  void create_makesA0600KeyWithALoudWarning_andNeverReplacesOne() throws Exception {
    Path keys = dir.resolve("keys");
    Run r = cairn(keys, "key", "create", "--app", "heat");
    assertThat(r.exit()).as(r.err()).isZero();
    Path file = keys.resolve("heat.json");
    assertThat(r.out()).startsWith("created key ").contains("for app heat in " + file);
    assertThat(r.err()).contains("WARNING").contains(file.toString()).contains("cannot be restored by anyone");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(keys))).isEqualTo("rwx------");
    String before = Files.readString(file);

    Run again = cairn(keys, "key", "create", "--app", "heat");
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.err().strip()).isEqualTo("cairn: create failed: app heat already has a key in " + file + "; not replaced");
    assertThat(Files.readString(file)).isEqualTo(before);
    try (var left = Files.list(keys)) {
      assertThat(left).as("no temporary files left").hasSize(1);
    }
  }

  @Test
  void exportThenImport_movesAKeyToAnotherClient() throws Exception {
    Path a = dir.resolve("a");
    Path b = dir.resolve("b");
    assertThat(cairn(a, "key", "create", "--app", "heat").exit()).isZero();
    Run printed = cairn(a, "key", "export", "--app", "heat");
    assertThat(printed.exit()).isZero();
    AppKey key = AppKey.fromJson(printed.out(), "stdout");
    Path copy = dir.resolve("heat-key.json");
    Run exported = cairn(a, "key", "export", "--app", "heat", "-o", copy.toString());
    assertThat(exported.exit()).as(exported.err()).isZero();
    assertThat(exported.err()).contains("WARNING").contains("secret key");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(copy))).isEqualTo("rw-------");
    assertThat(cairn(a, "key", "export", "--app", "heat", "-o", copy.toString()).err()).contains("exists; not overwritten");

    Run imported = cairn(b, "key", "import", "--app", "heat", copy.toString());
    assertThat(imported.exit()).as(imported.err()).isZero();
    assertThat(imported.out()).contains("imported key " + key.fingerprint());
    assertThat(cairn(b, "key", "list").out()).startsWith("heat  " + key.fingerprint());
    Run same = cairn(b, "key", "import", "--app", "heat", copy.toString());
    assertThat(same.exit()).isZero();
    assertThat(same.out()).contains("nothing changed");
  }

  @Test
  void import_refusesToReplaceADifferentKey_unlessForced() throws Exception {
    Path a = dir.resolve("a");
    Path b = dir.resolve("b");
    cairn(a, "key", "create", "--app", "heat");
    cairn(b, "key", "create", "--app", "heat");
    Path copy = dir.resolve("a-heat.json");
    cairn(a, "key", "export", "--app", "heat", "-o", copy.toString());
    String bKey = Files.readString(b.resolve("heat.json"));

    Run refused = cairn(b, "key", "import", "--app", "heat", copy.toString());
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).contains("already has another key").contains("--force");
    assertThat(Files.readString(b.resolve("heat.json"))).isEqualTo(bKey);

    Run forced = cairn(b, "key", "import", "--app", "heat", copy.toString(), "--force");
    assertThat(forced.exit()).as(forced.err()).isZero();
    assertThat(forced.out()).startsWith("replaced key ");
    assertThat(Files.readString(b.resolve("heat.json"))).isEqualTo(Files.readString(copy));
  }

  @Test
  void import_refusesAKeyOfAnotherAppAndFilesThatAreNotKeys() throws Exception {
    Path a = dir.resolve("a");
    cairn(a, "key", "create", "--app", "heat");
    Path copy = dir.resolve("k.json");
    cairn(a, "key", "export", "--app", "heat", "-o", copy.toString());
    assertThat(cairn(a, "key", "import", "--app", "wave", copy.toString()).err()).contains("is for app heat, not wave");
    Path junk = Files.writeString(dir.resolve("junk.json"), "{\"hello\":1}");
    Run r = cairn(a, "key", "import", "--app", "heat", junk.toString());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains(junk + " is not a Cairn key file");
  }

  @Test
  void list_ofAnEmptyDirectory_printsNothing_andExportOfAMissingKeySaysSo() {
    Run list = cairn(dir.resolve("none"), "key", "list");
    assertThat(list.exit()).isZero();
    assertThat(list.out()).isEmpty();
    Run export = cairn(dir.resolve("none"), "key", "export", "--app", "heat");
    assertThat(export.exit()).isEqualTo(1);
    assertThat(export.err()).contains("app heat has no key in");
  }

  @Test
  void store_refusesAnUnknownEncryption() {
    Run r = cairn(dir, "--tracker", "http://127.0.0.1:1", "--token-file", dir.resolve("t").toString(), "store", "x", "--app", "heat",
        "--node", "n", "--encryption", "rot13");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--encryption: encryption must be aes-gcm, aes-siv or none, was 'rot13'");
  }
}
