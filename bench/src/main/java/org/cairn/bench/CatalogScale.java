package org.cairn.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.CommitRequest;
import org.cairn.core.api.member.HeartbeatRequest;
import org.cairn.core.api.member.RegisterRequest;
import org.cairn.core.api.repair.RepairClaim;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.manifest.Manifest;

/*
 * The tracker's catalog at scale, on a running tracker (started with --repair-grace 0s, so a failure queues repair
 * at once): `holders` simulated donors register and heartbeat (no data), then versions of `chunks` new chunks each,
 * code:4+2 on six holders drawn at random, are committed one after another until the catalog holds `fill` chunks.
 * At each milestone it reports the commits' p50/p99 since the last one, the tracker's resident memory, its CPU time so far and its data
 * directory's size. Then a fraction of the holders stops heartbeating at once: it reports when the tracker showed
 * them all DOWN, when the repair queue first held a chunk, and when it held every chunk that lost a piece (the
 * bench counts them as it commits; it polls /metrics, which reads the tracker's last scan and starts none), the slowest
 * /metrics answer, the slowest claim of one job by a live holder from the first queue until one more walk has ended
 * ({@link ClaimProbe}), and whether the first jobs a live holder claims are the riskiest (fewest live pieces).
 */
public final class CatalogScale {
  private static final List<String> TAGS = List.of("00000001", "00000002", "00000003", "00000004", "00000005", "00000006");
  private static final int CHUNK_BYTES = 1 << 20;

  private final TrackerClient tracker;
  private final Consumer<StageResult> out;
  private final Random random = new Random(31);
  private final java.util.concurrent.atomic.AtomicLong beatsRefused = new java.util.concurrent.atomic.AtomicLong();

  public CatalogScale(TrackerClient tracker, Consumer<StageResult> out) {
    this.tracker = tracker;
    this.out = out;
  }

  /** What a run measures beside the tracker: its process (for the resident memory) and its data directory. */
  public record Tracker(Long pid, Path data) {}

  public void run(int holders, long fill, long[] milestones, int chunks, double failFraction, Tracker t) throws Exception {
    run(holders, fill, milestones, chunks, failFraction, t, null);
  }

  /** As {@link #run(int, long, long[], int, double, Tracker)}, with each commit's start and latency in {@code times} (null: none). */
  public void run(int holders, long fill, long[] milestones, int chunks, double failFraction, Tracker t, Path times) throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < holders; i++) {
      ids.add(String.format("scale-%05d", i));
    }
    long interval = register(ids);
    BitSet failing = chooseFailing(holders, failFraction);
    BitSet silent = new BitSet(holders);
    ScheduledExecutorService beats = Executors.newSingleThreadScheduledExecutor();
    try {
      beats.scheduleAtFixedRate(() -> beat(ids, silent), interval / 2, interval / 2, TimeUnit.MILLISECONDS);
      long[] atRisk;
      try (java.io.PrintWriter log = times == null ? null
          : new java.io.PrintWriter(Files.newBufferedWriter(times, java.nio.charset.StandardCharsets.UTF_8))) {
        if (log != null) {
          log.println("startEpochMs,latencyMs");
        }
        atRisk = fill(ids, failing, fill, milestones, chunks, t, log);
      }
      silent.or(failing);
      failure(ids, failing, atRisk, interval);
    } finally {
      beats.shutdownNow();
    }
  }

  private long register(List<String> ids) throws IOException {
    long interval = 5000;
    for (int i = 0; i < ids.size(); i++) {
      interval = tracker.register(new RegisterRequest(ids.get(i), "127.0.0.1:" + (20000 + i), "RUNNING", 1L << 42, 0, 1L << 42, 0,
          false, "scale")).heartbeatIntervalMillis();
    }
    return interval;
  }

  private void beat(List<String> ids, BitSet silent) {
    for (int i = 0; i < ids.size(); i++) {
      if (!silent.get(i)) {
        tracker.heartbeatAsync(ids.get(i), new HeartbeatRequest("RUNNING", 1L << 42, 0, 0, false)).whenComplete((status, e) -> {
          if (e != null || status != 200) {
            beatsRefused.incrementAndGet();
          }
        });
      }
    }
  }

  private BitSet chooseFailing(int holders, double fraction) {
    BitSet b = new BitSet(holders);
    Random r = new Random(37);
    while (b.cardinality() < Math.round(holders * fraction)) {
      b.set(r.nextInt(holders));
    }
    return b;
  }

  /** Commits until {@code fill} chunks; returns, by how many of its six pieces are on failing holders, the chunks. */
  private long[] fill(List<String> ids, BitSet failing, long fill, long[] milestones, int chunks, Tracker t, java.io.PrintWriter times)
      throws Exception {
    long[] byFailed = new long[7];
    long committed = 0;
    int next = 0;
    long[] window = new long[(int) Math.min(Integer.MAX_VALUE - 8, fill / chunks + 1)];
    int inWindow = 0;
    long started = System.nanoTime();
    String node = "n" + Long.toHexString(random.nextLong() & 0xffffffL);
    for (long v = 0; committed < fill; v++) {
      CommitRequest c = version(ids, failing, node, v + 1, chunks, byFailed);
      long startMs = System.currentTimeMillis();
      long t0 = System.nanoTime();
      tracker.commit(c);
      window[inWindow++] = System.nanoTime() - t0;
      if (times != null) {
        times.printf(java.util.Locale.ROOT, "%d,%.2f%n", startMs, window[inWindow - 1] / 1e6);
      }
      committed += chunks;
      if (next < milestones.length && committed >= milestones[next]) {
        long[] sorted = Arrays.copyOf(window, inWindow);
        Arrays.sort(sorted);
        out.accept(new StageResult("catalog")
            .with("chunks", committed)
            .with("commitsTimed", inWindow)
            .with("commitP50Ms", HeartbeatLoad.millis(sorted, 0.50))
            .with("commitP99Ms", HeartbeatLoad.millis(sorted, 0.99))
            .with("trackerRssMb", rssMb(t.pid()))
            .with("trackerCpuS", cpuSeconds(t.pid()))
            .with("trackerLiveHeapMb", liveHeapMb(t.pid()))
            .with("trackerDataMb", duMb(t.data()))
            .with("fillSeconds", Math.round((System.nanoTime() - started) / 1e8) / 10.0));
        inWindow = 0;
        next++;
      }
    }
    return byFailed;
  }

  private CommitRequest version(List<String> ids, BitSet failing, String node, long step, int chunks, long[] byFailed) {
    List<ChunkRef> refs = new ArrayList<>(chunks);
    List<CommitRequest.NewChunk> sent = new ArrayList<>(chunks);
    byte[] seed = new byte[32];
    int[] pick = new int[6];
    for (int c = 0; c < chunks; c++) {
      random.nextBytes(seed);
      ChunkId id = ChunkId.of(seed);
      List<String> holders = new ArrayList<>(6);
      int failed = 0;
      for (int k = 0; k < 6; k++) {
        int h;
        do {
          h = random.nextInt(ids.size());
        } while (contains(pick, k, h));
        pick[k] = h;
        holders.add(ids.get(h));
        failed += failing.get(h) ? 1 : 0;
      }
      byFailed[failed]++;
      refs.add(new ChunkRef(id, CHUNK_BYTES));
      sent.add(new CommitRequest.NewChunk(id.hex(), holders, TAGS, 1_572_864, null));
    }
    Manifest m = Manifest.of("bench-scale", node, step, CHUNK_BYTES, "code:4+2", "zstd", "file", System.currentTimeMillis(), "bench",
        refs);
    return new CommitRequest(m, sent, java.util.UUID.randomUUID().toString());
  }

  private static boolean contains(int[] a, int n, int v) {
    for (int i = 0; i < n; i++) {
      if (a[i] == v) {
        return true;
      }
    }
    return false;
  }

  /** Silences the failing holders (the caller did); times DOWN, the first queued chunk and the full queue. */
  private void failure(List<String> ids, BitSet failing, long[] byFailed, long interval) throws Exception {
    long atRisk = 0;
    for (int f = 1; f <= 6; f++) {
      atRisk += f <= 2 ? byFailed[f] : 0; // more than k=2 pieces gone: lost, not queued
    }
    List<String> claimers = new ArrayList<>();
    for (int i = failing.nextClearBit(0) + 1; i < ids.size(); i = failing.nextClearBit(i + 1)) {
      claimers.add(ids.get(i)); // every live holder but the first, whose claim riskFirst reads
    }
    long t0 = System.nanoTime();
    Double allDown = null;
    Double firstQueued = null;
    Double allQueued = null;
    int maxQueue = 0;
    long slowestAnswer = 0;
    long walksAtFirst = -1;
    int metricsFailed = 0;
    long limit = t0 + TimeUnit.MINUTES.toNanos(10);
    try (ClaimProbe probe = new ClaimProbe(tracker, claimers, 100)) {
      // until every at-risk chunk is queued and (for the claims' sake) one more walk after the first queue ended
      while (System.nanoTime() < limit && (allQueued == null || walksAtFirst >= 0 && walks() <= walksAtFirst)) {
        double s = (System.nanoTime() - t0) / 1e9;
        if (allDown == null && downCount(ids, failing) == failing.cardinality()) {
          allDown = s;
        }
        long asked = System.nanoTime();
        long[] queue;
        try {
          queue = queueAndWalks(); // the last scan's queue: polling starts no scan
        } catch (IOException e) {
          metricsFailed++; // an answer the tracker did not give (it waited too long): counted, and asked again
          continue;
        } finally {
          slowestAnswer = Math.max(slowestAnswer, System.nanoTime() - asked);
        }
        double answered = (System.nanoTime() - t0) / 1e9;
        maxQueue = (int) Math.max(maxQueue, queue[0]);
        if (firstQueued == null && queue[0] > 0) {
          firstQueued = answered;
          walksAtFirst = queue[2];
          probe.start(); // only now: a claim that finds the queue empty may start a scan, which would move the figures
        }
        if (allQueued == null && queue[0] + queue[1] >= atRisk) {
          allQueued = answered;
        }
        Thread.sleep(250);
      }
      out.accept(new StageResult("catalog-failure")
          .with("holdersFailed", failing.cardinality())
          .with("chunksOneLost", byFailed[1])
          .with("chunksTwoLost", byFailed[2])
          .with("chunksBeyondK", byFailed[3] + byFailed[4] + byFailed[5] + byFailed[6])
          .with("heartbeatTimeoutS", interval * 3 / 1000.0)
          .with("allDownS", allDown)
          .with("firstQueuedS", firstQueued)
          .with("allQueuedS", allQueued)
          .with("maxQueue", maxQueue)
          .with("slowestMetricsS", Math.round(slowestAnswer / 1e7) / 100.0)
          .with("metricsFailed", metricsFailed)
          .with("claimsProbed", probe.claims())
          .with("claimsFailed", probe.failures())
          .with("slowestClaimS", probe.slowestSeconds())
          .with("walksDuring", walks() - walksAtFirst + 1)
          .with("riskFirst", riskFirst(ids, failing))
          .with("heartbeatsFailed", beatsRefused.get()));
    }
  }

  /** {@code cairn_repair_queue}, {@code cairn_repair_in_progress} and {@code cairn_repair_walks_total} from the tracker's metrics. */
  private long[] queueAndWalks() throws IOException {
    long[] q = new long[3];
    for (String line : tracker.metrics().split("\n")) {
      if (line.startsWith("cairn_repair_queue ")) {
        q[0] = (long) Double.parseDouble(line.substring(line.indexOf(' ') + 1).strip());
      } else if (line.startsWith("cairn_repair_in_progress ")) {
        q[1] = (long) Double.parseDouble(line.substring(line.indexOf(' ') + 1).strip());
      } else if (line.startsWith("cairn_repair_walks_total ")) {
        q[2] = (long) Double.parseDouble(line.substring(line.indexOf(' ') + 1).strip());
      }
    }
    return q;
  }

  /** {@code cairn_repair_walks_total}, or {@link Long#MIN_VALUE} if the tracker did not answer. */
  private long walks() {
    try {
      return queueAndWalks()[2];
    } catch (IOException e) {
      return Long.MIN_VALUE;
    }
  }

  private int downCount(List<String> ids, BitSet failing) throws IOException {
    int n = 0;
    for (var p : tracker.peers()) {
      int i = ids.indexOf(p.id());
      n += i >= 0 && failing.get(i) && "DOWN".equals(p.state()) ? 1 : 0;
    }
    return n;
  }

  /** Whether the first jobs a live holder claims rebuild two pieces (one live piece beyond m) before any rebuilds one. */
  private String riskFirst(List<String> ids, BitSet failing) throws IOException {
    String live = ids.get(failing.nextClearBit(0));
    RepairClaim.Jobs jobs = tracker.claimRepairs(live, 64);
    int[] sizes = jobs.jobs().stream().mapToInt(j -> j.targets().size()).toArray();
    for (int i = 1; i < sizes.length; i++) {
      if (sizes[i] > sizes[i - 1]) {
        return "no: " + Arrays.toString(sizes);
      }
    }
    return sizes.length == 0 ? "no jobs claimed" : "yes: " + Arrays.toString(sizes);
  }

  static long rssMb(Long pid) {
    if (pid == null) {
      return -1;
    }
    try {
      for (String line : Files.readAllLines(Path.of("/proc", pid.toString(), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
        }
      }
    } catch (IOException e) {
      return -1;
    }
    return -1;
  }

  /**
   * The CPU time (user and system) the tracker's process has used since it started, in seconds, or -1: on a shared machine
   * its growth between milestones compares builds where their latencies, which wait on the run queue, do not.
   */
  static double cpuSeconds(Long pid) {
    if (pid == null) {
      return -1;
    }
    try {
      String stat = Files.readString(Path.of("/proc", pid.toString(), "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" "); // fields from the 3rd (state) on
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime and stime, in USER_HZ (100 on Linux)
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** The tracker's heap in use right after a full GC it is asked for ({@code jcmd}): what its objects hold. */
  static long liveHeapMb(Long pid) throws IOException, InterruptedException {
    if (pid == null) {
      return -1;
    }
    String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    new ProcessBuilder(jcmd, pid.toString(), "GC.run").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start().waitFor();
    Process p = new ProcessBuilder(jcmd, pid.toString(), "GC.heap_info").redirectErrorStream(true).start();
    String text = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    p.waitFor();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("used (\\d+)K").matcher(text);
    return m.find() ? Long.parseLong(m.group(1)) / 1024 : -1;
  }

  static long duMb(Path dir) throws IOException {
    if (dir == null) {
      return -1;
    }
    try (var files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum() >> 20;
    }
  }
}
