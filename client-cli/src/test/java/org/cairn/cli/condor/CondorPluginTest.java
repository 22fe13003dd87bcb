package org.cairn.cli.condor;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class CondorPluginTest {
  @TempDir
  Path dir;

  @Test
  void theLaunchersClassadAnswerWithoutAJvmIsTheJavaOne() throws Exception {
    Process p = new ProcessBuilder("sh", Path.of("src/main/launcher/cairn_plugin").toString(), "-classad").redirectErrorStream(true).start();
    String shell = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isZero();
    assertThat(shell.replace("@VERSION@", CondorPlugin.version())).isEqualTo(CondorPlugin.capabilities());
    assertThat(CondorPlugin.capabilities()).contains("SupportedMethods = \"cairn\"\n");
  }

  @Test
  void theOutputFileIsOverwrittenFromTheStartAndPaddedNeverTruncated() throws Exception {
    Path out = Files.writeString(dir.resolve("out"), "x".repeat(1000));
    CondorPlugin.write(out, "[ TransferSuccess = true ]\n");
    String text = Files.readString(out);
    assertThat(text).hasSize(1000).startsWith("[ TransferSuccess = true ]\n");
    assertThat(text.substring(27)).isBlank();
    assertThat(ClassAdParser.parseSequence(text)).hasSize(1);
    CondorPlugin.write(out, "[ a = \"" + "y".repeat(2000) + "\" ]\n");
    assertThat(Files.size(out)).as("longer output grows the file").isGreaterThan(2000);
  }

  @Test
  void argumentsItDoesNotKnowAreAUsageErrorAndHelpIsNot() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    assertThat(CondorPlugin.run(new String[] {"-infile"}, Map.of(), o, e)).isEqualTo(1);
    assertThat(CondorPlugin.run(new String[] {"-bogus"}, Map.of(), o, e)).isEqualTo(1);
    assertThat(CondorPlugin.run(new String[] {"-upload"}, Map.of(), o, e)).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("unexpected argument '-bogus'").contains("Usage: cairn_plugin");
    assertThat(CondorPlugin.run(new String[] {"-help"}, Map.of(), o, e)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("-infile <input-filename> -outfile <output-filename> [-upload]");
  }

  @Test
  void aJobAdThatCannotBeReadGivesEveryFileAParameterErrorNotMissingResults() throws Exception {
    Path in = Files.writeString(dir.resolve(".cairn_plugin.in"), "[ Url = \"cairn://a/b\"; LocalFileName = \"b\" ][ Url = \"cairn://a/c\"; "
        + "LocalFileName = \"c\" ][ PluginData = 1 ]");
    Path out = Files.writeString(dir.resolve(".cairn_plugin.out"), " ".repeat(100));
    Path jobAd = Files.write(dir.resolve(".job.ad"), new byte[(int) GridFlags.MAX_JOB_AD + 1]);
    int code = CondorPlugin.run(new String[] {"-infile", in.toString(), "-outfile", out.toString(), "-upload"},
        Map.of("_CONDOR_JOB_AD", jobAd.toString(), "CAIRN_AGENT", "off"), System.out, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(1);
    java.util.List<ClassAd> results = ClassAdParser.parseSequence(Files.readString(out));
    assertThat(results).extracting(r -> r.string("TransferUrl")).containsExactly("cairn://a/b", "cairn://a/c");
    assertThat(results).allSatisfy(r -> assertThat(r.string("TransferError")).contains("larger than"));
  }

  @Test
  void aCleanUpOutsideHtcondorsCheckpointLayoutOrWithADotDotDeletesNothingAndSaysWhy() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    Map<String, String> env = Map.of("CAIRN_AGENT", "off");
    assertThat(CondorPlugin.run(new String[] {"-from", "cairn://sim/plain", "-delete", "f", "-jobad", "/nonexistent"}, env, o, System.err)).isEqualTo(1);
    assertThat(CondorPlugin.run(new String[] {"-from", "cairn://sim/ckpt/h_1.0_2/0001", "-delete", "../../x", "-jobad", "/nonexistent"}, env, o,
        System.err)).isEqualTo(1);
    assertThat(CondorPlugin.run(new String[] {"-from", "https://x/ckpt/h_1.0_2/0001", "-delete", "f"}, env, o, System.err)).isEqualTo(1);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("not in HTCondor's checkpoint layout").contains("'..' is not allowed")
        .contains("not a cairn:// URL").doesNotContainPattern("(?m)^deleted ");
  }

  @Test
  void anUnreadableInputFileStillGetsOneResultAdSayingWhy() throws Exception {
    Path out = Files.writeString(dir.resolve(".cairn_plugin.out"), " ".repeat(100));
    int code = CondorPlugin.run(new String[] {"-infile", dir.resolve("missing.in").toString(), "-outfile", out.toString()}, Map.of(),
        System.out, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(1);
    ClassAd r = ClassAdParser.parseSequence(Files.readString(out)).get(0);
    assertThat(r.get("TransferSuccess")).isEqualTo(new ClassAd.Bool(false));
    assertThat(r.string("TransferError")).contains("missing.in: no such file");
  }
}
