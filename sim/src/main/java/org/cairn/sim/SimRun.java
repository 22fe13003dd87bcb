package org.cairn.sim;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import javax.net.ssl.SSLContext;
import org.cairn.core.api.TokenRequest;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.status.ClusterView;
import org.cairn.core.security.GridToken;
import org.cairn.core.security.PinnedTrust;
import org.cairn.sim.churn.ChurnModel;
import org.cairn.sim.churn.ChurnParameters;
import org.cairn.sim.fleet.Fleet;
import org.cairn.sim.fleet.SimClock;
import org.cairn.sim.measure.DownWatch;
import org.cairn.sim.measure.Latencies;
import org.cairn.sim.measure.PlacementProbe;
import org.cairn.sim.measure.ProcessCpu;

/**
 * One run: issue a donor enrollment token and a client token with the operator's; find the leader; enroll the donors;
 * heartbeat through one warm-up interval, then the steady minutes (heartbeat latency, the leader's CPU); time
 * placement as a client; fail a fraction of the donors, whole labs at once, and watch the tracker mark them DOWN.
 */
final class SimRun {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
  private static final int ENROLL_IN_FLIGHT = 64;
  private final SimSettings s;
  private final java.io.PrintStream log;

  SimRun(SimSettings settings, java.io.PrintStream log) {
    this.s = settings;
    this.log = log;
  }

  SimReport run() throws IOException, InterruptedException {
    GridToken admin = GridToken.readFile(s.tokenFile());
    boolean tls = "https".equalsIgnoreCase(s.trackers().get(0).getScheme());
    if (tls && admin.caPin().isEmpty()) {
      throw new IOException(s.tokenFile() + " has no #sha256: pin of the tracker's CA; use the token 'token create' printed");
    }
    TrackerClient operator = new TrackerClient(s.trackers(), admin, CALL_TIMEOUT);
    URI leader = leader(operator);
    GridToken donorToken = GridToken.of(operator.createToken(new TokenRequest("donor", null, false, 86_400L, s.donors(),
        "cairn-sim: " + s.donors() + " simulated donors")).token());
    GridToken clientToken = GridToken.of(operator.createToken(new TokenRequest("client", List.of("sim"), false, 86_400L, null,
        "cairn-sim: placement as a client")).token());
    TrackerClient client = new TrackerClient(s.trackers(), clientToken, CALL_TIMEOUT);
    SimClock clock = SimClock.startingAt(s.startHour(), s.timeScale());
    long horizon = (long) ((s.minutes() + 30) * 60_000 * s.timeScale()); // the run's real span, with room for enrolment and the failure
    ChurnParameters params = s.outages() ? ChurnParameters.published() : ChurnParameters.published().withoutOutages();
    ChurnModel churn = new ChurnModel(params, s.donors(), horizon, s.seed());
    SSLContext context = tls ? PinnedTrust.context(admin.caPin().get()) : null;
    try (org.cairn.sim.net.TrackerLanes lanes = new org.cairn.sim.net.TrackerLanes(leader, context, s.connections(), s.threads());
        Fleet fleet = new Fleet(lanes, s.donors(), tls, churn, clock, s.seed())) {
      log.printf("enrolling %d donors at %s%n", s.donors(), leader);
      long enrollStart = System.nanoTime();
      fleet.enroll(donorToken, ENROLL_IN_FLIGHT);
      double enrollSeconds = (System.nanoTime() - enrollStart) / 1e9;
      log.printf("enrolled %d donors in %.1f s (%.0f registrations/s)%n", s.donors(), enrollSeconds, s.donors() / enrollSeconds);
      Thread.sleep(fleet.intervalMillis()); // one interval of warm-up: every donor's first beat, the JIT's first pass
      fleet.resetBeatLatencies();
      ProcessCpu cpu = leaderCpu(leader);
      if (cpu != null) {
        cpu.start();
      }
      log.printf("heartbeating for %.1f minutes%n", s.minutes());
      Thread.sleep((long) (s.minutes() * 60_000)); // the steady window is the measurement itself
      Latencies.Summary beats = fleet.beats().summary();
      Latencies.Summary wire = fleet.wire().summary();
      Latencies.Summary lag = fleet.schedulerLag().summary();
      Latencies.Summary laneWait = fleet.laneWait().summary();
      log.printf("steady: heartbeats due-to-answer %s, on the wire %s; %s%n", beats, wire, fleet.counters().snapshot());
      ProcessCpu.Window leaderCpu = cpu == null ? null : cpu.window();
      double load = loadAverage();
      log.println("timing placement");
      int candidates = up(client.peers());
      Latencies.Summary placement = new PlacementProbe(client).run(s.placements()).summary();
      DownWatch.Outcome failure = s.failFraction() > 0 ? fail(fleet, churn, client) : null;
      var counts = fleet.counters().snapshot();
      boolean nothingLost = counts.registered() == s.donors() && counts.beatErrors() == 0
          && (failure == null || failure.wronglyDown() == 0 && failure.seconds() >= 0);
      return new SimReport(s.donors(), leader.toString(), tls, fleet.intervalMillis(), counts, fleet.registrations().summary(), enrollSeconds, beats, wire, lag, laneWait,
          leaderCpu == null ? null : leaderCpu.percent(), leaderCpu == null ? null : leaderCpu.millisPer(beats.count()), load, candidates,
          placement, failure,
          new SimReport.Churn(churn.ownerSessions(), churn.outages(), churn.labs(s.donors()), horizon / 3_600_000.0), nothingLost);
    }
  }

  /** Fails whole labs, in a seeded order, until the fraction is reached; watches the tracker mark them DOWN. */
  private DownWatch.Outcome fail(Fleet fleet, ChurnModel churn, TrackerClient client) throws IOException, InterruptedException {
    List<Integer> labs = new ArrayList<>();
    for (int l = 0; l < churn.labs(s.donors()); l++) {
      labs.add(l);
    }
    Collections.shuffle(labs, new Random(s.seed()));
    int target = (int) Math.ceil(s.failFraction() * s.donors());
    Set<Integer> failed = new HashSet<>();
    Set<String> ids = new HashSet<>();
    int labSize = churn.parameters().labSize();
    for (int i = 0; i < labs.size() && failed.size() < target; i++) {
      for (int d = labs.get(i) * labSize; d < Math.min(s.donors(), (labs.get(i) + 1) * labSize); d++) {
        failed.add(d);
        ids.add(fleet.id(d));
      }
    }
    List<String> all = new ArrayList<>();
    for (int i = 0; i < fleet.size(); i++) {
      all.add(fleet.id(i));
    }
    log.printf("failing %d donors at once%n", failed.size());
    long at = System.nanoTime();
    fleet.fail(failed);
    long interval = fleet.intervalMillis() * 1_000_000;
    return new DownWatch(client).await(ids, all, at, (d, t) -> !fleet.silenced(d) && fleet.heartbeatedWithin(d, t, interval),
        Duration.ofSeconds(s.downLimitSeconds()));
  }

  /**
   * The leader's URL, as the group says (a lone tracker leads itself). A member that just took the lead names its URL a
   * moment later (it writes it through the log as it starts serving): until then the group is asked again, for up to
   * {@link #LEADER_WAIT}, so the donors do not enroll at a follower.
   */
  private URI leader(TrackerClient operator) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + LEADER_WAIT.toNanos();
    while (true) {
      ClusterView c = operator.cluster();
      URI named = leaderUrl(c);
      if (named != null || c.members() == null || c.members().size() <= 1 || System.nanoTime() > deadline) {
        return named != null ? named : operator.base();
      }
      Thread.sleep(200);
    }
  }

  static final Duration LEADER_WAIT = Duration.ofSeconds(30);

  /** The URL the view names for its leader, or null: no leader yet, or one whose URL it does not know yet. */
  static URI leaderUrl(ClusterView c) {
    if (c.members() != null && c.leader() != null) {
      for (ClusterView.Member m : c.members()) {
        if (m.id().equals(c.leader()) && m.url() != null) {
          return URI.create(m.url());
        }
      }
    }
    return null;
  }

  private ProcessCpu leaderCpu(URI leader) {
    for (int i = 0; i < s.trackerPids().size(); i++) {
      URI t = s.trackers().get(i);
      if (t.getHost().equals(leader.getHost()) && t.getPort() == leader.getPort()) {
        return new ProcessCpu(s.trackerPids().get(i));
      }
    }
    if (!s.trackerPids().isEmpty()) {
      log.printf("the leader %s is none of --tracker; its CPU is not measured%n", leader);
    }
    return null;
  }

  private static int up(List<PeerView> peers) {
    int n = 0;
    for (PeerView p : peers) {
      if (!"DOWN".equals(p.state())) {
        n++;
      }
    }
    return n;
  }

  private static double loadAverage() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
