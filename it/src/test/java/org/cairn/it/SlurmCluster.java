package org.cairn.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real single-node Slurm for tests, from Debian's {@code slurm-wlm} and {@code munge}, without
 * systemd: a {@code munged} of its own (its key, socket and logs under the cluster's directory,
 * running as user munge), {@code slurmctld} and {@code slurmd} in the foreground with a
 * {@code slurm.conf} of its own ({@code SLURM_CONF}, free ports), as root. Scheduling runs every 2 s
 * and credentials expire after 10 s, so a requeued job runs again about 12 s after it ended (not
 * Slurm's default ~150 s). Every process it starts, and every process of its jobs, carries
 * {@code CAIRN_SLURM_IT=DIR} in its environment; {@link #close()} stops the daemons and kills whatever
 * still carries it (a job's processes outlive slurmd).
 *
 * <p>Without the packages or root the tests are skipped with a message, unless CAIRN_REQUIRE_SLURM_TESTS is
 * set (as .ci/run does): then they fail.
 */
final class SlurmCluster implements AutoCloseable {
  static final String MARKER = "CAIRN_SLURM_IT";
  private static final String[] TOOLS = {"/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/sbatch",
      "/usr/bin/scontrol", "/usr/bin/scancel", "/usr/bin/squeue", "/usr/bin/sinfo", "/usr/bin/setpriv"};

  private final Path dir;
  private final List<Process> daemons = new ArrayList<>();

  private SlurmCluster(Path dir) {
    this.dir = dir;
  }

  /** Skips (or, with CAIRN_REQUIRE_SLURM_TESTS, fails) unless Slurm and munge are installed and this runs as root. */
  static void require() throws IOException, InterruptedException {
    String missing = null;
    for (String t : TOOLS) {
      if (!Files.isExecutable(Path.of(t))) {
        missing = t + " is missing (apt-get install slurm-wlm munge)";
        break;
      }
    }
    if (missing == null && !"root".equals(System.getProperty("user.name"))) {
      missing = "the Slurm test runs slurmctld and slurmd as root (SlurmUser=root), and this is " + System.getProperty("user.name");
    }
    if (missing != null) {
      if (System.getenv("CAIRN_REQUIRE_SLURM_TESTS") != null) {
        throw new AssertionError(missing);
      }
      org.junit.jupiter.api.Assumptions.assumeTrue(false, missing + "; skipped");
    }
  }

  /** Starts munged, slurmctld and slurmd with their files under {@code dir}, and waits until the node is idle. */
  static SlurmCluster start(Path dir) throws Exception {
    SlurmCluster c = new SlurmCluster(dir);
    try {
      c.startMunge();
      Files.writeString(dir.resolve("slurm.conf"), c.config());
      Files.createDirectories(dir.resolve("state"));
      Files.createDirectories(dir.resolve("spool"));
      c.daemon("slurmctld", "/usr/sbin/slurmctld", "-D", "-c");
      c.daemon("slurmd", "/usr/sbin/slurmd", "-D", "-N", "cairn1");
      MiniGrid.await("the Slurm node idle", Duration.ofSeconds(60), () -> c.run("sinfo", "-h", "-o", "%T").strip().equals("idle"),
          c::logs);
      return c;
    } catch (Exception | AssertionError e) {
      c.close();
      throw e;
    }
  }

  /** The environment Slurm's commands and jobs need: {@code SLURM_CONF} and the marker. */
  Map<String, String> env() {
    return Map.of("SLURM_CONF", dir.resolve("slurm.conf").toString(), MARKER, dir.toString());
  }

  /** {@code sbatch --parsable ARGS SCRIPT} with {@code jobEnv} added to the environment the job gets; returns the job id. */
  String submit(Map<String, String> jobEnv, Path script, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("sbatch", "--parsable"));
    cmd.addAll(List.of(args));
    cmd.add(script.toString());
    return command(cmd, jobEnv).strip();
  }

  /** The job's state as squeue says it (RUNNING, PENDING, COMPLETING...), or "" once squeue no longer lists it. */
  String state(String jobId) throws Exception {
    return run("squeue", "-h", "-j", jobId, "-o", "%T").strip();
  }

  /** Runs a Slurm command to its end; returns its standard output, or fails with its error. */
  String run(String... cmd) throws Exception {
    return command(List.of(cmd), Map.of());
  }

  private String command(List<String> cmd, Map<String, String> extra) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.PIPE);
    pb.environment().putAll(extra);
    pb.environment().putAll(env());
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new AssertionError(String.join(" ", cmd) + " failed: " + err.strip() + "\n" + logs());
    }
    return new String(out, StandardCharsets.UTF_8);
  }

  /** The last lines of the daemons' logs, for a failure's message. */
  String logs() throws IOException {
    StringBuilder b = new StringBuilder();
    for (String name : List.of("slurmctld.log", "slurmd.log", "munged.log", "munged.out", "slurmctld.out", "slurmd.out")) {
      Path f = dir.resolve(name);
      if (Files.isReadable(f)) {
        List<String> lines = Files.readAllLines(f);
        b.append("--- ").append(name).append('\n');
        lines.subList(Math.max(0, lines.size() - 15), lines.size()).forEach(l -> b.append(l).append('\n'));
      }
    }
    return b.toString();
  }

  /** A munged of the cluster's own: key and logs private to user munge, the socket in a directory all may enter. */
  private void startMunge() throws Exception {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x")); // munge enters it
    for (Path p = dir.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
      if (!Files.getPosixFilePermissions(p).contains(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE)) {
        throw new IllegalStateException("user munge cannot reach its socket under " + dir + ": " + p + " is closed to others");
      }
    }
    Path priv = Files.createDirectories(dir.resolve("munge"));
    Path run = Files.createDirectories(dir.resolve("munge-run"));
    byte[] key = new byte[1024];
    new java.util.Random(20261202L).nextBytes(key); // a test cluster's key: nothing to keep secret
    Files.write(priv.resolve("key"), key);
    for (Path p : List.of(priv, priv.resolve("key"), run)) {
      Files.setOwner(p, p.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("munge"));
    }
    Files.setPosixFilePermissions(priv.resolve("key"), PosixFilePermissions.fromString("r--------"));
    Files.setPosixFilePermissions(priv, PosixFilePermissions.fromString("rwx------"));
    Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwxr-xr-x"));
    daemon("munged", "/usr/bin/setpriv", "--reuid=munge", "--regid=munge", "--clear-groups", "/usr/sbin/munged", "-F",
        "--socket=" + socket(), "--key-file=" + priv.resolve("key"), "--pid-file=" + run.resolve("pid"),
        "--seed-file=" + priv.resolve("seed"), "--log-file=" + dir.resolve("munged.log"));
    MiniGrid.await("munged's socket", Duration.ofSeconds(20), () -> Files.exists(socket()), this::logs);
  }

  private Path socket() {
    return dir.resolve("munge-run").resolve("sock");
  }

  private void daemon(String name, String... cmd) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
        .redirectErrorStream(true).redirectOutput(dir.resolve(name + ".out").toFile());
    pb.environment().putAll(env());
    daemons.add(pb.start());
  }

  private String config() throws Exception {
    String host = new String(new ProcessBuilder("hostname", "-s").start().getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    Map<String, String> c = new java.util.LinkedHashMap<>();
    c.put("ClusterName", "cairnit");
    c.put("SlurmctldHost", host + "(127.0.0.1)");
    c.put("SlurmctldPort", Integer.toString(Ports.free()));
    c.put("SlurmdPort", Integer.toString(Ports.free()));
    c.put("SlurmUser", "root");
    c.put("SlurmdUser", "root");
    c.put("AuthType", "auth/munge");
    c.put("CredType", "cred/munge");
    c.put("AuthInfo", "socket=" + socket() + ",cred_expire=10"); // a requeued job may run again cred_expire s after it ended
    c.put("StateSaveLocation", dir.resolve("state").toString());
    c.put("SlurmdSpoolDir", dir.resolve("spool").toString());
    c.put("SlurmctldPidFile", dir.resolve("slurmctld.pid").toString());
    c.put("SlurmdPidFile", dir.resolve("slurmd.pid").toString());
    c.put("SlurmctldLogFile", dir.resolve("slurmctld.log").toString());
    c.put("SlurmdLogFile", dir.resolve("slurmd.log").toString());
    c.put("ProctrackType", "proctrack/linuxproc"); // no cgroups, no systemd
    c.put("TaskPlugin", "task/none");
    c.put("JobAcctGatherType", "jobacct_gather/none");
    c.put("AccountingStorageType", "accounting_storage/none");
    c.put("MpiDefault", "none");
    c.put("SwitchType", "switch/none");
    c.put("SchedulerType", "sched/backfill");
    c.put("SchedulerParameters", "sched_interval=2,bf_interval=2");
    c.put("SelectType", "select/cons_tres");
    c.put("SelectTypeParameters", "CR_Core");
    c.put("ReturnToService", "2");
    c.put("SlurmdParameters", "config_overrides"); // the node's CPUs as written here, whatever the machine has
    c.put("KillWait", "120"); // SIGTERM to SIGKILL: time for the last checkpoint and its store on a busy machine (default 30 s)
    c.put("JobRequeue", "1");
    StringBuilder b = new StringBuilder();
    c.forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
    b.append("NodeName=cairn1 NodeHostname=").append(host).append(" NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n");
    b.append("PartitionName=main Nodes=cairn1 Default=YES MaxTime=INFINITE State=UP\n");
    return b.toString();
  }

  /**
   * Cancels the jobs, stops the daemons (SIGTERM, then SIGKILL) and kills every process still carrying
   * this cluster's marker (its jobs' processes, DMTCP's coordinator).
   */
  @Override
  public void close() {
    try {
      if (!daemons.isEmpty() && Files.exists(dir.resolve("slurm.conf"))) {
        command(List.of("scancel", "--user=root"), Map.of());
      }
    } catch (Exception | AssertionError e) {
      // the controller may be down already: the processes are killed below
    }
    for (int i = daemons.size() - 1; i >= 0; i--) {
      daemons.get(i).destroy(); // slurmd, slurmctld, then munged
    }
    for (Process p : daemons) {
      try {
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    killMarked();
  }

  /**
   * Kills, by pid, every process whose environment carries {@code CAIRN_SLURM_IT=DIR} or whose working
   * directory is this cluster's (slurmd starts slurmstepd with an empty environment, in its own directory).
   */
  private void killMarked() {
    byte[] mark = (MARKER + "=" + dir + "\0").getBytes(StandardCharsets.UTF_8);
    long self = ProcessHandle.current().pid();
    ProcessHandle.allProcesses().filter(h -> h.pid() != self).forEach(h -> {
      try {
        Path proc = Path.of("/proc", Long.toString(h.pid()));
        if (indexOf(Files.readAllBytes(proc.resolve("environ")), mark) >= 0
            || Files.readSymbolicLink(proc.resolve("cwd")).toString().startsWith(dir.toString())) {
          h.destroyForcibly();
        }
      } catch (IOException | RuntimeException e) {
        // gone, or not ours to read
      }
    });
  }

  private static int indexOf(byte[] in, byte[] what) {
    outer:
    for (int i = 0; i + what.length <= in.length; i++) {
      for (int j = 0; j < what.length; j++) {
        if (in[i + j] != what[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
