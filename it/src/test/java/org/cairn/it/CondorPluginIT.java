package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built HTCondor plug-in, {@code client-cli/target/cairn_plugin}, run as HTCondor's starter and
 * {@code condor_manifest} run it, against a grid of real processes (TLS, as by default): {@code -classad}; a
 * self-checkpointing job's checkpoint uploaded from its sandbox by the plug-in's copy shipped with the job, then downloaded into a restarted job's sandbox through
 * the user's agent (the thin route) byte for byte; and the clean-up of that checkpoint number. The input files are
 * shaped as HTCondor writes them (src/condor_utils/file_transfer.cpp: one unparsed {@code [ Url = ...; LocalFileName =
 * ... ]} per file, no separator; the output file pre-allocated with spaces).
 */
class CondorPluginIT {
  private static final String GID = "submit.example.org_41.0_1764676800";
  private static final String DESTINATION = "cairn://condor-it/ckpt/";

  @TempDir
  Path root;

  private MiniGrid grid;

  @BeforeEach
  void startGrid() throws Exception {
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker();
    grid.startPeersRunning(5);
  }

  @AfterEach
  void stopGrid() {
    grid.close();
  }

  private static Path plugin() {
    return MiniGrid.jar("client-cli", "cairn_plugin");
  }

  /** A job's sandbox as the starter makes it: the shipped token file, and the job ad naming the grid. */
  private Path sandbox(String name) throws Exception {
    Path s = Files.createDirectories(root.resolve("execute").resolve(name));
    Files.copy(grid.tokenFile(), s.resolve("cairn.token"));
    Files.writeString(s.resolve(".job.ad"), "GlobalJobId = \"submit.example.org#41.0#1764676800\"\nIwd = \"" + root + "\"\n"
        + "CairnTracker = \"" + grid.trackerUrl() + "\"\nCairnTokenFile = \"cairn.token\"\nCairnKeyDir = \"" + root.resolve("job-keys") + "\"\n"
        + "CairnHome = \"" + plugin().getParent() + "\"\n");
    return s;
  }

  /** Runs the plug-in on {@code ads} as the starter does (input IWD/.cairn_plugin.in, output pre-allocated). */
  private MiniGrid.Cli transfer(Path sandbox, String ads, boolean upload, Map<String, String> env) throws Exception {
    return transfer(plugin(), sandbox, ads, upload, env);
  }

  private MiniGrid.Cli transfer(Path plugin, Path sandbox, String ads, boolean upload, Map<String, String> env) throws Exception {
    Path in = Files.writeString(sandbox.resolve(".cairn_plugin.in"), ads);
    Path out = Files.writeString(sandbox.resolve(".cairn_plugin.out"), " ".repeat(19264));
    List<String> cmd = new ArrayList<>(List.of(plugin.toString(), "-infile", in.toString(), "-outfile", out.toString()));
    if (upload) {
      cmd.add("-upload");
    }
    Map<String, String> all = new java.util.HashMap<>(env);
    all.put("_CONDOR_JOB_AD", sandbox.resolve(".job.ad").toString());
    return grid.command(cmd, all);
  }

  private static String ad(String url, Path file) {
    return "[ Url = \"" + url + "\"; LocalFileName = \"" + file + "\" ]";
  }

  @Test
  void aCheckpointGoesUpFromOneSandboxComesBackIntoAnotherThroughTheAgentAndIsCleanedUp() throws Exception {
    MiniGrid.Cli classad = grid.command(List.of(plugin().toString(), "-classad"), Map.of());
    assertThat(classad.exit()).isZero();
    assertThat(classad.stdout()).contains("SupportedMethods = \"cairn\"").contains("ProtocolVersion = 2")
        .contains("MultipleFileSupport = true").contains("PluginType = \"FileTransfer\"");

    // the submit directory (the job's Iwd on the access point) holds the token the job ships and clean-up reads
    Files.copy(grid.tokenFile(), root.resolve("cairn.token"));
    Path job = sandbox("dir_1001");
    byte[] state = new byte[65_536];
    new Random(66).nextBytes(state);
    Files.write(job.resolve("saved-state"), state);
    Files.createDirectories(job.resolve("dmtcp"));
    byte[] image = MemoryImages.image(66, 6 * 1024 * 1024);
    Files.write(job.resolve("dmtcp/ckpt_rank0.dmtcp"), image);
    Files.writeString(job.resolve("_condor_checkpoint_MANIFEST.0002"), "sha256 lines\n");
    String at = DESTINATION + GID + "/0002/";
    String upload = ad(at + "saved-state", job.resolve("saved-state")) + ad(at + "dmtcp/ckpt_rank0.dmtcp", job.resolve("dmtcp/ckpt_rank0.dmtcp"))
        + ad(at + "_condor_checkpoint_MANIFEST.0002", job.resolve("_condor_checkpoint_MANIFEST.0002"));
    // the copy HTCondor ships with the job (transfer_plugins) is alone in the sandbox: it finds cairn.jar by the job ad's CairnHome
    Path shipped = Files.copy(plugin(), job.resolve("cairn_plugin"));
    MiniGrid.Cli up = transfer(shipped, job, upload, true, Map.of("CAIRN_AGENT", "off"));
    String results = Files.readString(job.resolve(".cairn_plugin.out"));
    assertThat(up.exit()).as(up.stderr() + results).isZero();
    assertThat(results.split("TransferSuccess = true", -1)).hasSize(4);
    assertThat(results).doesNotContain("TransferSuccess = false").contains("TransferType = \"upload\"");

    // the restarted job, on another host: its sandbox gets the checkpoint from the grid, through this user's agent
    Path socket = root.resolve("run").resolve("agent.sock");
    grid.startAgent("agent", socket);
    Path restart = sandbox("dir_2002");
    String back = DESTINATION + "/" + GID + "/0002/"; // HTCondor's restart joins with one more '/'
    Path loaded = root.resolve("plugin-classes.log");
    MiniGrid.Cli down = transfer(restart, ad(back + "saved-state", restart.resolve("saved-state"))
        + ad(back + "dmtcp/ckpt_rank0.dmtcp", restart.resolve("dmtcp/ckpt_rank0.dmtcp")), false, Map.of("CAIRN_AGENT_SOCKET", socket.toString(),
        "CAIRN_JAVA_OPTS", "-Xlog:class+load=info:file=" + loaded));
    String downResults = Files.readString(restart.resolve(".cairn_plugin.out"));
    assertThat(down.exit()).as(down.stderr() + downResults).isZero();
    assertThat(downResults.split("TransferSuccess = true", -1)).hasSize(3);
    assertThat(Files.readAllBytes(restart.resolve("saved-state"))).isEqualTo(state);
    assertThat(Files.readAllBytes(restart.resolve("dmtcp/ckpt_rank0.dmtcp"))).isEqualTo(image);
    assertThat(Files.readString(loaded)).as("the plug-in's JVM, with an agent: the thin client's classes only")
        .contains("org.cairn.cli.condor.CondorPlugin").contains("org.cairn.cli.agent.wire.AgentWire")
        .doesNotContain("picocli").doesNotContain("io.netty").doesNotContain("org.cairn.cli.CairnCli").doesNotContain("com.fasterxml");
    MiniGrid.await("the agent ran the plug-in's fetches", Duration.ofSeconds(10),
        () -> (Files.readString(root.resolve("agent.err")) + Files.readString(root.resolve("agent.out"))).split("ran .*fetch", -1).length >= 3);

    // the job left the queue: condor_manifest runs the clean-up for a file of checkpoint 2 (once per file; one here)
    MiniGrid.Cli clean = grid.command(List.of(plugin().toString(), "-from", DESTINATION + GID + "/0002", "-delete", "saved-state", "-jobad",
        job.resolve(".job.ad").toString()), Map.of("CAIRN_AGENT", "off"));
    assertThat(clean.exit()).as(clean.stdout() + clean.stderr()).isZero();
    assertThat(steps("saved-state")).as("the file's version of checkpoint 2").isEmpty();
    assertThat(steps("_condor_checkpoint_MANIFEST")).as("and the checkpoint's MANIFEST, which condor_manifest never names").isEmpty();
    assertThat(steps("dmtcp+ckpt_rank0.dmtcp")).as("a file not named yet stays").containsExactly(3L);
  }

  /** The steps the tracker lists for the job's file {@code node}. */
  private List<Long> steps(String node) throws Exception {
    MiniGrid.Result r = grid.get("/api/v1/versions?app=condor-it&node="
        + java.net.URLEncoder.encode("ckpt+" + GID + "+" + node, java.nio.charset.StandardCharsets.UTF_8));
    assertThat(r.status()).as(r.text()).isEqualTo(200);
    List<Long> steps = new ArrayList<>();
    r.json().forEach(v -> steps.add(v.get("step").asLong()));
    return steps;
  }
}
