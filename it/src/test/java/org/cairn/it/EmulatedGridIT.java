package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI smoke test of the emulated grid (it/testbed/grid.sh): 4 donors in network namespaces, one on a
 * slow link; a store and a fetch from a client namespace; an eviction and return; and `down` leaves
 * no namespace behind. Needs root and iproute2.
 */
class EmulatedGridIT {
  private static final Path SCRIPT = Path.of(System.getProperty("cairn.root", "."), "it", "testbed", "grid.sh");
  /** The tests' own namespace prefix, so they never touch an operator's testbed (cairntb) and vice versa. */
  private static final String PREFIX = "cairnit";
  private static final String NS = PREFIX + "-";

  @TempDir
  Path root;

  private Path dir;

  record Run(int exit, String out) {}

  private Run run(int seconds, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("bash", SCRIPT.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(root.resolve("run.out").toFile());
    pb.environment().put("CAIRN_TESTBED_DIR", dir.toString());
    pb.environment().put("CAIRN_TESTBED_PREFIX", PREFIX);
    Process p = pb.start();
    if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("grid.sh " + String.join(" ", args) + " did not finish in " + seconds + " s");
    }
    return new Run(p.exitValue(), Files.readString(root.resolve("run.out")));
  }

  private static String netns() throws IOException, InterruptedException {
    Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    return out;
  }

  /** The tools the testbed needs (a missing one fails where desktop tests are required, else skips), and root (skips without). */
  private static void requireTestbedAsRoot() throws IOException {
    MiniGrid.requireTools("the testbed needs iproute2 (ip, tc) and curl: apt-get install -y iproute2 curl (.ci/run installs them)",
        Path.of("/usr/sbin/ip"), Path.of("/usr/sbin/tc"), Path.of("/usr/bin/curl"));
    org.junit.jupiter.api.Assumptions.assumeTrue("0".equals(new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes()).trim()),
        "the testbed needs root");
  }

  /**
   * A run killed mid-test (a CI timeout, a developer's Ctrl-C) leaves its namespaces behind, and `up`
   * rightly refuses to start over them: clear what an earlier run of these tests left.
   */
  @BeforeEach
  void clearWhatAKilledRunLeft() throws Exception {
    if (!netns().contains(NS)) {
      return;
    }
    dir = root.resolve("stale");
    Run down = run(60, "down");
    dir = null;
    assertThat(netns()).as("namespaces left by an earlier run, after down: " + down.out()).doesNotContain(NS);
  }

  @AfterEach
  void down() throws Exception {
    if (dir != null) {
      Run down = run(60, "down");
      assertThat(down.exit()).as("grid.sh down after the test: " + down.out()).isZero();
      assertThat(netns()).as("namespaces after down").doesNotContain(NS);
    }
  }

  @Test
  void upStoreFetchEvictDown() throws Exception {
    MiniGrid.requireTools("the testbed needs iproute2 (ip, tc) and curl: apt-get install -y iproute2 curl (.ci/run installs them)",
        Path.of("/usr/sbin/ip"), Path.of("/usr/sbin/tc"), Path.of("/usr/bin/curl"));
    if (!"0".equals(new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes()).trim())) {
      MiniGrid.requireTools("the testbed needs root (network namespaces)", Path.of("/nonexistent/root"));
    }
    dir = root.resolve("testbed");
    Run up = run(180, "up", "--donors", "4", "--slow-donor", "8mbit");
    assertThat(up.exit()).as(up.out()).isZero();
    assertThat(up.out()).contains("testbed up");
    assertThat(netns()).contains(NS + "hub", NS + "tracker", NS + "d1", NS + "d4", NS + "c1");
    Run status = run(30, "status");
    assertThat(status.out()).contains("d4").contains("8mbit").contains("10.77.0.14");
    Run shaping = run(30, "exec", "d4", "tc", "qdisc", "show", "dev", "eth0");
    assertThat(shaping.out()).contains("tbf").contains("rate 8Mbit"); // netem (delay, loss) only where the kernel has it

    byte[] image = new byte[6 << 20];
    new Random(7).nextBytes(image);
    Path file = Files.write(root.resolve("ckpt.img"), image);
    Run store = run(120, "cairn", "c1", "store", file.toString(), "--app", "smoke", "--node", "n1", "--redundancy", "code:2+1",
        "--json");
    assertThat(store.exit()).as(store.out()).isZero();
    JsonNode r = new ObjectMapper().readTree(store.out().substring(store.out().indexOf('{')));
    assertThat(r.get("hosts")).hasSize(3);
    // FALCON probed the donors it never measured, and left the one on the slow link out
    assertThat(r.get("probed").toString()).contains("d4");
    assertThat(r.get("hosts").toString()).doesNotContain("d4");

    // evict a donor that holds data: the fetch reads from the other two
    String victim = r.get("hosts").get(0).asText();
    assertThat(run(30, "kill", victim).exit()).isZero();
    Path out = root.resolve("out.img");
    Run fetch = run(120, "cairn", "c1", "fetch", "--app", "smoke", "--node", "n1", "-o", out.toString());
    assertThat(fetch.exit()).as(fetch.out()).isZero();
    assertThat(out).hasBinaryContent(image);
    assertThat(run(30, "start", victim).exit()).isZero();

    // a link changes while everything runs
    assertThat(run(30, "shape", "d3", "20mbit").exit()).isZero();
    assertThat(run(30, "exec", "d3", "tc", "qdisc", "show", "dev", "eth0").out()).contains("rate 20Mbit");
    // the eviction driver replays a trace: d2 evicted at once, back 1 s later
    Path trace = Files.writeString(root.resolve("trace"), "# seconds donor down\n0 d2 1\n");
    Run evict = run(60, "evict", "--trace", trace.toString());
    assertThat(evict.exit()).as(evict.out()).isZero();
    assertThat(Files.readString(dir.resolve("evictions.log"))).contains("evict d2 for 1 s").contains("return d2");

    Run down = run(60, "down");
    dir = null;
    assertThat(down.exit()).as(down.out()).isZero();
    assertThat(netns()).doesNotContain(NS);
  }

  @Test
  void aDonorsSlowDisk_isAThrottledCgroupThatDownRemoves() throws Exception {
    requireTestbedAsRoot();
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(Path.of("/sys/fs/cgroup/blkio")),
        "--disk-rate needs the cgroup v1 blkio controller (/sys/fs/cgroup/blkio), which this kernel does not mount");
    dir = root.resolve("testbed");
    Run up = run(180, "up", "--donors", "1", "--disks", "256M", "--disk-rate", "10MB");
    assertThat(up.exit()).as(up.out()).isZero();
    Path cg = Path.of("/sys/fs/cgroup/blkio/" + NS + "d1");
    assertThat(Files.readString(cg.resolve("blkio.throttle.write_bps_device"))).contains(" 10000000");
    assertThat(Files.readString(cg.resolve("blkio.throttle.read_bps_device"))).contains(" 10000000");
    String pid = Files.readString(dir.resolve("d1.pid")).strip();
    assertThat(Files.readAllLines(cg.resolve("cgroup.procs"))).contains(pid);
    assertThat(run(30, "disk-rate", "d1", "20MiB").exit()).isZero();
    assertThat(Files.readString(cg.resolve("blkio.throttle.write_bps_device"))).contains(" 20971520");
    assertThat(run(30, "disk-rate", "d1", "fast").exit()).isNotZero();
    // the peer's own writes are charged to the cgroup (its fdatasync writes the pages from its threads)
    long before = writtenBytes(cg);
    storeRandom("charged", 6 << 20, 13, "replicate:1");
    assertThat(writtenBytes(cg) - before).as("bytes charged to d1's cgroup for a 6 MiB store").isGreaterThanOrEqualTo(6L << 20);
    // the load generator's depth: N writers
    assertThat(run(30, "load", "d1", "100", "--writers", "3", "--block", "64K").exit()).isZero();
    boolean third = false;
    for (int i = 0; i < 100 && !third; i++) {
      third = new String(new ProcessBuilder("pgrep", "-f", "of=" + dir.resolve("d1/.loadgen3")).start().getInputStream().readAllBytes()).strip()
          .length() > 0;
      if (!third) {
        Thread.sleep(100);
      }
    }
    assertThat(third).as("a third writer").isTrue();
    assertThat(run(30, "load", "d1", "50", "--writers", "0").exit()).isNotZero();
    assertThat(run(30, "load", "d1", "0").exit()).isZero();
    Run down = run(60, "down");
    dir = null;
    assertThat(down.exit()).as(down.out()).isZero();
    assertThat(cg).doesNotExist();
    assertThat(netns()).doesNotContain(NS);
  }

  /** --ram-disks: each donor's data on its own tmpfs, mounted by up and unmounted by down. */
  @Test
  void ramDisks_areTmpfsPerDonor_andDownUnmountsThem() throws Exception {
    requireTestbedAsRoot();
    dir = root.resolve("testbed");
    Run up = run(180, "up", "--donors", "2", "--ram-disks", "64M");
    assertThat(up.exit()).as(up.out()).isZero();
    for (String d : new String[] {"d1", "d2"}) {
      assertThat(mountTypeOf(dir.resolve(d))).as(d).isEqualTo("tmpfs");
    }
    storeRandom("ram", 3 << 20, 14, "code:1+1");
    Run both = run(30, "up", "--donors", "1", "--disks", "64M", "--ram-disks", "64M");
    assertThat(both.exit()).isNotZero();
    assertThat(both.out()).contains("exclude each other");
    assertThat(mountTypeOf(dir.resolve("d1"))).as("the running testbed is untouched").isEqualTo("tmpfs");
    Run down = run(60, "down");
    dir = null;
    assertThat(down.exit()).as(down.out()).isZero();
    assertThat(mountTypeOf(root.resolve("testbed/d1"))).isNotEqualTo("tmpfs");
  }

  /** Stores {@code size} seeded random bytes from c1 as app.n, uncompressed, and asserts it succeeded. */
  private void storeRandom(String app, int size, long seed, String redundancy) throws Exception {
    byte[] image = new byte[size];
    new Random(seed).nextBytes(image);
    Path file = Files.write(root.resolve(app + ".img"), image);
    Run store = run(120, "cairn", "c1", "store", file.toString(), "--app", app, "--node", "n", "--redundancy", redundancy,
        "--compression", "none");
    assertThat(store.exit()).as(store.out()).isZero();
  }

  /** The file system type mounted exactly at the path, or "" if none is. */
  private static String mountTypeOf(Path p) throws IOException {
    String want = p.toAbsolutePath().normalize().toString();
    for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
      String[] f = line.split(" ");
      if (f.length > 2 && f[1].equals(want)) {
        return f[2];
      }
    }
    return "";
  }

  /** Bytes written through the cgroup's throttle, all devices. */
  private static long writtenBytes(Path cgroup) throws IOException {
    long sum = 0;
    for (String line : Files.readAllLines(cgroup.resolve("blkio.throttle.io_service_bytes"))) {
      String[] f = line.trim().split("\\s+");
      if (f.length == 3 && f[1].equals("Write")) {
        sum += Long.parseLong(f[2]);
      }
    }
    return sum;
  }

  /** --loss without netem: a random classifier drops that fraction of each link's packets; TCP still delivers. */
  @Test
  void packetLoss_dropsTheGivenFraction_andStoresStillComplete() throws Exception {
    requireTestbedAsRoot();
    dir = root.resolve("testbed");
    Run up = run(180, "up", "--donors", "2", "--loss", "5%");
    assertThat(up.exit()).as(up.out()).isZero();
    assertThat(run(30, "status").out()).contains("5%");
    storeRandom("lossy", 4 << 20, 11, "code:1+1");
    Run stats = run(30, "exec", "c1", "tc", "-s", "qdisc", "show", "dev", "eth0");
    if (stats.out().contains("netem")) {
      return; // the kernel's netem does the loss; its counters differ
    }
    java.util.regex.Matcher dropped = java.util.regex.Pattern.compile("pfifo 20:.*?dropped (\\d+)", java.util.regex.Pattern.DOTALL)
        .matcher(stats.out());
    assertThat(dropped.find()).as(stats.out()).isTrue();
    Run classes = run(30, "exec", "c1", "tc", "-s", "class", "show", "dev", "eth0");
    java.util.regex.Matcher passed = java.util.regex.Pattern.compile("class htb 2:10 .*?Sent \\d+ bytes (\\d+) pkt", java.util.regex.Pattern.DOTALL)
        .matcher(classes.out());
    assertThat(passed.find()).as(classes.out()).isTrue();
    double fraction = Double.parseDouble(dropped.group(1)) / (Double.parseDouble(dropped.group(1)) + Double.parseDouble(passed.group(1)));
    // about 3,000 packets: 5 % give 150 +- 12 (one standard deviation)
    assertThat(fraction).as("dropped " + dropped.group(1) + ", passed " + passed.group(1)).isBetween(0.03, 0.07);
  }
  /**
   * --delay: netem where the kernel has it, otherwise a user-space delay line per link (two taps and
   * delayline.py). Either way each direction of each link waits the delay, so a TCP connect from a
   * client to a donor (one round trip over two links) takes four times it.
   */
  @Test
  void linkDelay_isFourDelaysPerRoundTrip_andStoresStillComplete() throws Exception {
    MiniGrid.requireTools("the delay lines need python3: apt-get install -y python3 (.ci/run installs it)", Path.of("/usr/bin/python3"));
    requireTestbedAsRoot();
    dir = root.resolve("testbed");
    Run up = run(180, "up", "--donors", "2", "--delay", "5ms");
    assertThat(up.exit()).as(up.out()).isZero();
    assertThat(run(30, "status").out()).contains("5ms");
    // the shortest of ten connects: scheduling on a busy machine only adds to a round trip
    Run rtt = run(60, "exec", "c1", "python3", "-c", """
        import socket, time
        best = 1e9
        for _ in range(10):
            t = time.perf_counter()
            s = socket.create_connection(('10.77.0.11', 7700))
            best = min(best, time.perf_counter() - t)
            s.close()
        print('%.2f' % (best * 1000))
        """);
    assertThat(rtt.exit()).as(rtt.out()).isZero();
    double ms = Double.parseDouble(rtt.out().strip().lines().reduce((a, b) -> b).orElseThrow());
    assertThat(ms).as("connect time, ms").isBetween(19.0, 120.0);
    storeRandom("delayed", 2 << 20, 12, "code:1+1");
    Run down = run(120, "down");
    assertThat(down.exit()).as(down.out()).isZero();
    dir = null;
    assertThat(netns()).doesNotContain(NS);
    assertThat(new String(new ProcessBuilder("pgrep", "-f", "delayline.py --a " + NS).start().getInputStream().readAllBytes()))
        .as("delay lines left running").isBlank();
  }
}
