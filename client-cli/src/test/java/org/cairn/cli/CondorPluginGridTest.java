package org.cairn.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.cairn.cli.condor.ClassAd;
import org.cairn.cli.condor.ClassAdParser;
import org.cairn.cli.condor.CondorPlugin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTCondor's plug-in protocol (version 2) against a real tracker and peers in this JVM: each case gives the result ads
 * and the exit code the protocol asks for. The input files are shaped as HTCondor writes them (test resources
 * condor/*.in say from where); the output file is pre-allocated with spaces as HTCondor's starter does.
 */
class CondorPluginGridTest {
  private static final String APP = "condor-sim";
  private static final String GID = "submit.example.org_12.0_1704487782";

  @TempDir
  static Path dir;

  private static InProcessGrid grid;
  private static int sandboxes;

  @BeforeAll
  static void start() throws Exception {
    grid = new InProcessGrid(dir.resolve("grid"), 5);
  }

  @AfterAll
  static void stop() {
    grid.close();
  }

  /** One plug-in run: its exit code, its result ads and what it printed. */
  record Run(int exit, List<ClassAd> results, String out, String err) {
    ClassAd result(int i) {
      return results.get(i);
    }
  }

  /** A fresh job sandbox holding the grid's token as the job ships it (transfer_input_files) and a job ad naming it. */
  private static Path sandbox(String tracker) throws IOException {
    Path s = Files.createDirectories(dir.resolve("sandbox" + sandboxes++));
    Files.copy(grid.tokenFile(), s.resolve("cairn.token"));
    Files.writeString(s.resolve(".job.ad"), "ClusterId = 12\nIwd = \"/home/user/sim\"\nCairnTracker = \"" + tracker + "\"\n"
        + "CairnTokenFile = \"cairn.token\"\nCairnKeyDir = \"" + dir.resolve("keys") + "\"\nCmd = \"/home/user/sim/run.sh\"\n");
    return s;
  }

  private static Path sandbox() throws IOException {
    return sandbox(grid.url());
  }

  /** Runs the plug-in as HTCondor's starter does: input file IWD/.cairn_plugin.in, output file pre-allocated with spaces. */
  private static Run plugin(Path sandbox, String input, boolean upload) throws IOException {
    Path in = sandbox.resolve(".cairn_plugin.in");
    Path out = sandbox.resolve(".cairn_plugin.out");
    Files.writeString(in, input.replace("@SANDBOX@", sandbox.toString()).replace("@APP@", APP));
    Files.writeString(out, " ".repeat(16 * 1204 / 64 * 64));
    List<String> args = new ArrayList<>(List.of("-infile", in.toString(), "-outfile", out.toString()));
    if (upload) {
      args.add("-upload");
    }
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    int code = CondorPlugin.run(args.toArray(String[]::new), Map.of("CAIRN_AGENT", "off", "_CONDOR_JOB_AD", sandbox.resolve(".job.ad").toString()),
        new PrintStream(stdout, true, StandardCharsets.UTF_8), new PrintStream(stderr, true, StandardCharsets.UTF_8));
    String written = Files.readString(out);
    assertThat(written.length()).as("the pre-allocated output file is overwritten, not truncated").isGreaterThanOrEqualTo(16 * 1204 / 64 * 64);
    return new Run(code, ClassAdParser.parseSequence(written), stdout.toString(StandardCharsets.UTF_8), stderr.toString(StandardCharsets.UTF_8));
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = CondorPluginGridTest.class.getResourceAsStream("/condor/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static byte[] bytes(long seed, int size) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static String ad(String url, Path file) {
    return "[ Url = \"" + url + "\"; LocalFileName = \"" + file + "\" ]";
  }

  private static void assertSucceeded(Run run, int files) {
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.results()).hasSize(files);
    for (ClassAd r : run.results()) {
      assertThat(r.get("TransferSuccess")).as(r.toString()).isEqualTo(new ClassAd.Bool(true));
      assertThat(r.has("TransferError")).isFalse();
    }
  }

  private static ClassAd errorData(ClassAd result) {
    ClassAd.ListValue list = (ClassAd.ListValue) result.get("TransferErrorData");
    assertThat(list.items()).hasSize(1);
    return ((ClassAd.Nested) list.items().get(0)).ad();
  }

  @Test
  void aSingleFileUploadedThenDownloadedComesBackByteIdenticalWithOneResultAdEach() throws Exception {
    Path job = sandbox();
    byte[] data = bytes(1, 300_000);
    Files.write(job.resolve("data.bin"), data);
    Run up = plugin(job, ad("cairn://" + APP + "/inputs/data.bin", job.resolve("data.bin")), true);
    assertSucceeded(up, 1);
    ClassAd r = up.result(0);
    assertThat(r.string("TransferType")).isEqualTo("upload");
    assertThat(r.string("TransferProtocol")).isEqualTo("cairn");
    assertThat(r.string("TransferUrl")).isEqualTo("cairn://" + APP + "/inputs/data.bin");
    assertThat(r.string("TransferFileName")).isEqualTo(job.resolve("data.bin").toString());
    assertThat(r.get("TransferFileBytes")).isEqualTo(new ClassAd.Int(data.length));
    assertThat(((ClassAd.Int) r.get("TransferTotalBytes")).value()).isPositive();
    assertThat(((ClassAd.Int) r.get("TransferEndTime")).value()).isGreaterThanOrEqualTo(((ClassAd.Int) r.get("TransferStartTime")).value());

    Path restart = sandbox();
    Run down = plugin(restart, resource("download-one.in"), false);
    assertSucceeded(down, 1);
    assertThat(down.result(0).string("TransferType")).isEqualTo("download");
    assertThat(down.result(0).get("TransferFileBytes")).isEqualTo(new ClassAd.Int(data.length));
    assertThat(Files.readAllBytes(restart.resolve("data.bin"))).isEqualTo(data);
  }

  @Test
  void aCheckpointOfManyFilesIsAVersionPerFileAtItsNumberPlusOneAndRestoresWholeOnRestart() throws Exception {
    Path job = sandbox();
    byte[] state = bytes(2, 50_000);
    byte[] image = bytes(3, 700_000);
    Files.write(job.resolve("saved-state"), state);
    Files.createDirectories(job.resolve("state"));
    Files.write(job.resolve("state/rank0.img"), image);
    Files.writeString(job.resolve("_condor_checkpoint_MANIFEST.0003"), "manifest\n");
    Run up = plugin(job, resource("checkpoint-upload.in"), true);
    assertSucceeded(up, 3);
    InProcessGrid.Run versions = grid.cairn("versions", "--app", APP, "--node", "ckpt+" + GID + "+state+rank0.img", "--json");
    assertThat(versions.out()).as(versions.err()).contains("\"step\":4");
    assertThat(grid.cairn("versions", "--app", APP, "--node", "ckpt+" + GID + "+_condor_checkpoint_MANIFEST", "--json").out())
        .contains("\"step\":4");

    Files.write(job.resolve("saved-state"), bytes(4, 50_000));
    assertSucceeded(plugin(job, resource("checkpoint-upload.in"), true), 3); // the same checkpoint sent again replaces its versions
    Files.write(job.resolve("saved-state"), state);
    assertSucceeded(plugin(job, resource("checkpoint-upload.in"), true), 3);

    Path restart = sandbox();
    Run down = plugin(restart, resource("checkpoint-download.in"), false);
    assertSucceeded(down, 2);
    assertThat(Files.readAllBytes(restart.resolve("saved-state"))).isEqualTo(state);
    assertThat(Files.readAllBytes(restart.resolve("state/rank0.img"))).isEqualTo(image);
  }

  @Test
  void aMissingVersionFailsItsFileAsASpecificationErrorWhileTheOthersStillTransferAndTheExitIs1() throws Exception {
    Path job = sandbox();
    Files.write(job.resolve("present"), bytes(5, 10_000));
    assertSucceeded(plugin(job, ad("cairn://" + APP + "/present", job.resolve("present")), true), 1);
    Path restart = sandbox();
    Run down = plugin(restart, ad("cairn://" + APP + "/never-stored", restart.resolve("missing"))
        + ad("cairn://" + APP + "/present", restart.resolve("present")), false);
    assertThat(down.exit()).isEqualTo(1);
    assertThat(down.results()).hasSize(2);
    ClassAd missing = down.result(0);
    assertThat(missing.get("TransferSuccess")).isEqualTo(new ClassAd.Bool(false));
    assertThat(missing.string("TransferError")).isNotBlank().doesNotContain("\n");
    assertThat(missing.string("TransferUrl")).isEqualTo("cairn://" + APP + "/never-stored");
    assertThat(errorData(missing).string("ErrorType")).as(missing.toString()).isEqualTo("Specification");
    assertThat(errorData(missing).get("Retryable")).isEqualTo(new ClassAd.Int(-1));
    assertThat(restart.resolve("missing")).doesNotExist();
    assertThat(down.result(1).get("TransferSuccess")).isEqualTo(new ClassAd.Bool(true));
    assertThat(restart.resolve("present")).exists();
  }

  @Test
  void aTrackerThatIsDownFailsEveryFileAsAContactErrorThePoolMayRetry() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    Path job = sandbox("http://127.0.0.1:" + closed);
    Files.write(job.resolve("a"), bytes(6, 1000));
    Run up = plugin(job, ad("cairn://" + APP + "/a", job.resolve("a")), true);
    assertThat(up.exit()).isEqualTo(1);
    assertThat(up.results()).hasSize(1);
    ClassAd error = errorData(up.result(0));
    assertThat(error.string("ErrorType")).as(up.result(0).toString()).isEqualTo("Contact");
    assertThat(error.get("Retryable")).isEqualTo(new ClassAd.Int(0));
    assertThat(error.string("FailedServer")).isEqualTo("http://127.0.0.1:" + closed);
    Run down = plugin(job, ad("cairn://" + APP + "/a", job.resolve("b")), false);
    assertThat(down.exit()).isEqualTo(1);
    assertThat(errorData(down.result(0)).string("ErrorType")).isEqualTo("Contact");
    assertThat(job.resolve("b")).doesNotExist();
  }

  @Test
  void aTokenTheGridRefusesIsAnAuthorizationErrorAndAMissingTokenFileAParameterError() throws Exception {
    Path job = sandbox();
    Files.writeString(job.resolve("cairn.token"), org.cairn.core.security.GridToken.generate());
    Files.write(job.resolve("a"), bytes(8, 1000));
    Run refused = plugin(job, ad("cairn://" + APP + "/a", job.resolve("a")), true);
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(errorData(refused.result(0)).string("ErrorType")).as(refused.result(0).toString()).isEqualTo("Authorization");
    Files.delete(job.resolve("cairn.token"));
    Run missing = plugin(job, ad("cairn://" + APP + "/a", job.resolve("a")), true);
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(errorData(missing.result(0)).string("ErrorType")).as(missing.result(0).toString()).isEqualTo("Parameter");
    assertThat(missing.result(0).string("TransferError")).contains("cairn.token");
  }

  @Test
  void cleanUpDeletesTheVersionsACheckpointNumberNamesAndAgainIsStillSuccess() throws Exception {
    Path job = sandbox();
    String base = "cairn://" + APP + "/clean/" + GID + "/";
    Files.write(job.resolve("f"), bytes(7, 20_000));
    for (String n : List.of("0000", "0001")) {
      Files.writeString(job.resolve("_condor_checkpoint_MANIFEST." + n), n);
      assertSucceeded(plugin(job, ad(base + n + "/f", job.resolve("f")) + ad(base + n + "/_condor_checkpoint_MANIFEST." + n,
          job.resolve("_condor_checkpoint_MANIFEST." + n)), true), 2);
    }
    String[] cleanup = {"-from", base + "0000", "-delete", "f", "-jobad", job.resolve(".job.ad").toString(), "-ignore-missing-files"};
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    // the clean-up's job ad has the submit host's Iwd: the token file is named absolutely there, as condor_manifest runs it
    Files.writeString(job.resolve(".job.ad"), Files.readString(job.resolve(".job.ad")).replace("\"cairn.token\"", "\"" + job.resolve("cairn.token") + "\""));
    int code = CondorPlugin.run(cleanup, Map.of("CAIRN_AGENT", "off"), new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
    assertThat(code).as(out.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(grid.cairn("versions", "--app", APP, "--node", "clean+" + GID + "+f", "--json").out()).doesNotContain("\"step\":1,")
        .contains("\"step\":2");
    assertThat(grid.cairn("versions", "--app", APP, "--node", "clean+" + GID + "+_condor_checkpoint_MANIFEST", "--json").out())
        .doesNotContain("\"step\":1,").contains("\"step\":2");
    out.reset();
    assertThat(CondorPlugin.run(cleanup, Map.of("CAIRN_AGENT", "off"), new PrintStream(out, true, StandardCharsets.UTF_8), System.err))
        .as(out.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("already gone");
  }

  @Test
  void hostileInputAdsEachGetAnErrorResultAndNothingIsWrittenOutsideTheSandbox() throws Exception {
    Path job = sandbox();
    String input = ad("cairn://" + APP + "/x", job.resolve("../escaped")) + ad("cairn://" + APP + "/x", Path.of("/tmp/cairn-plugin-escaped"))
        + "[ Url = strcat(\"cairn://\", \"x\"); LocalFileName = \"" + job.resolve("e") + "\" ]"
        + "[ LocalFileName = \"" + job.resolve("f") + "\" ]"
        + ad("cairn://" + APP + "/../../etc", job.resolve("g"))
        + ad("https://example.org/x", job.resolve("h"))
        + "[ PluginData = \"an ad about no file: passed over\" ]";
    Run run = plugin(job, input, false);
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.results()).hasSize(6);
    for (ClassAd r : run.results()) {
      assertThat(r.get("TransferSuccess")).isEqualTo(new ClassAd.Bool(false));
      assertThat(errorData(r).string("ErrorType")).as(r.toString()).isEqualTo("Parameter");
      assertThat(errorData(r).get("PluginLaunched")).isEqualTo(new ClassAd.Bool(true));
    }
    assertThat(run.result(2).string("TransferUrl")).isEqualTo("strcat(\"cairn://\", \"x\")");
    assertThat(dir.resolve("escaped")).doesNotExist();
    assertThat(Path.of("/tmp/cairn-plugin-escaped")).doesNotExist();

    Run malformed = plugin(job, "[ Url = \"cairn://a/b\"; LocalFileName = ", false);
    assertThat(malformed.exit()).isEqualTo(1);
    assertThat(malformed.results()).hasSize(1);
    assertThat(malformed.result(0).string("TransferError")).contains("not a ClassAd");
  }

  @Test
  void classadAnswersTheCapabilitiesHtcondorAsksFor() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(CondorPlugin.run(new String[] {"-classad"}, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8), System.err)).isZero();
    ClassAd ad = ClassAdParser.parseOld(out.toString(StandardCharsets.UTF_8));
    assertThat(ad.get("MultipleFileSupport")).isEqualTo(new ClassAd.Bool(true));
    assertThat(ad.string("PluginType")).isEqualTo("FileTransfer");
    assertThat(ad.string("SupportedMethods")).isEqualTo("cairn");
    assertThat(ad.get("ProtocolVersion")).isEqualTo(new ClassAd.Int(2));
    assertThat(ad.string("PluginVersion")).isNotBlank();
    assertThat(Arrays.asList(ad.names().toArray())).hasSize(5);
  }
}
