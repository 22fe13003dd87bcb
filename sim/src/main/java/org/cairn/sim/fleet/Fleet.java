package org.cairn.sim.fleet;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.cairn.core.api.Endpoints;
import org.cairn.core.api.TrackerHttp;
import org.cairn.core.api.member.HeartbeatRequest;
import org.cairn.core.api.member.HeartbeatResponse;
import org.cairn.core.security.GridToken;
import org.cairn.sim.churn.ChurnModel;
import org.cairn.sim.churn.Condition;
import org.cairn.sim.measure.Latencies;
import org.cairn.sim.net.Answer;
import org.cairn.sim.net.TrackerLanes;

/**
 * The simulated donors: each enrolls with the grid's donor token and then calls as itself with the credential the
 * tracker issued it, heartbeating at the interval the tracker named with the state the churn model gives it (RUNNING,
 * BUSY while its owner is active, silent while its lab is down or after it was failed). Beats are scheduled on one
 * thread and sent over the shared lanes; a heartbeat's latency is from when it was due to its answer.
 */
public final class Fleet implements AutoCloseable {
  private final TrackerLanes lanes;
  private final ChurnModel churn;
  private final SimClock clock;
  private final List<SimDonor> donors = new ArrayList<>();
  private final Counters counters = new Counters();
  private final Latencies registrations = new Latencies();
  private final Latencies beats = new Latencies();
  private final Latencies wire = new Latencies();
  private final Latencies schedulerLag = new Latencies();
  private final Latencies laneWait = new Latencies();
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "sim-beats");
    t.setDaemon(true);
    return t;
  });
  private final SplittableRandom random;
  private volatile long intervalMillis;

  public Fleet(TrackerLanes lanes, int size, boolean tls, ChurnModel churn, SimClock clock, long seed) {
    this.lanes = lanes;
    this.churn = churn;
    this.clock = clock;
    this.random = new SplittableRandom(seed);
    // each donor's key pair made on every core (EC P-256 key generation is most of a donor's set-up), in index order
    donors.addAll(java.util.stream.IntStream.range(0, size).parallel().mapToObj(i -> Enrollment.donor(i, tls)).toList());
  }

  public Counters counters() {
    return counters;
  }

  public Latencies registrations() {
    return registrations;
  }

  public Latencies beats() {
    return beats;
  }

  /** Heartbeats' latency from the request's write to its answer (the tracker's part, and the network's). */
  public Latencies wire() {
    return wire;
  }

  /**
   * How late the simulator's scheduler started each heartbeat after its schedule said (the simulator's own delay, before
   * a heartbeat's due-to-answer clock starts).
   */
  public Latencies schedulerLag() {
    return schedulerLag;
  }

  /**
   * Heartbeats' time from due to their write, and from their answer's arrival to its handling: the wait for the shared
   * connection (one call in flight on each) and the simulator's own event loops. Due-to-answer less on-the-wire.
   */
  public Latencies laneWait() {
    return laneWait;
  }

  /** Forgets the heartbeats' latencies recorded so far (the end of the warm-up). */
  public void resetBeatLatencies() {
    beats.reset();
    wire.reset();
    schedulerLag.reset();
    laneWait.reset();
  }

  public int size() {
    return donors.size();
  }

  public String id(int index) {
    return donors.get(index).id;
  }

  /** The heartbeat interval the tracker named at registration (ms). */
  public long intervalMillis() {
    return intervalMillis;
  }

  /**
   * Enrolls every donor with {@code donorToken}, at most {@code inFlight} registrations at once; waits for all.
   *
   * @throws IOException naming the first registration the tracker refused
   */
  public void enroll(GridToken donorToken, int inFlight) throws IOException, InterruptedException {
    Semaphore window = new Semaphore(inFlight);
    List<CompletableFuture<Void>> all = new ArrayList<>();
    for (SimDonor d : donors) {
      window.acquire();
      all.add(enroll(d, donorToken.bearerValue(), ENROLL_TRIES).thenRun(() -> startBeating(d)).whenComplete((v, e) -> window.release()));
    }
    try {
      CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
    } catch (java.util.concurrent.CompletionException e) {
      throw new IOException("enrollment failed: " + e.getCause().getMessage(), e.getCause());
    }
  }

  private static final int ENROLL_TRIES = 5;

  /**
   * A registration that did not reach the tracker, or whose answer was lost, is sent again a second later, as a real
   * peer retries at its interval; a retry the tracker refuses as already registered is a lost enrollment (the finding
   * docs/simulation.md names: the donor never got its credential).
   */
  private CompletableFuture<Void> enroll(SimDonor d, String bearer, int tries) {
    return register(d, bearer).handle((v, e) -> {
      if (e == null) {
        return CompletableFuture.<Void>completedFuture(null);
      }
      Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
      if (!(cause instanceof IOException) || tries <= 1) {
        return CompletableFuture.<Void>failedFuture(cause);
      }
      counters.enrollRetries.incrementAndGet();
      return CompletableFuture.supplyAsync(() -> null, CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS))
          .thenCompose(x -> enroll(d, bearer, tries - 1));
    }).thenCompose(f -> f);
  }

  private CompletableFuture<Void> register(SimDonor d, String bearer) {
    byte[] body;
    try {
      body = TrackerHttp.JSON.writeValueAsBytes(Enrollment.request(d, random.split()));
    } catch (JsonProcessingException e) {
      return CompletableFuture.failedFuture(e);
    }
    long start = System.nanoTime();
    return lanes.post(d.index, Endpoints.REGISTER.path(), bearer, body).thenAccept(a -> {
      if (a.status() != 200) {
        throw new IllegalStateException("the tracker refused " + d.id + "'s registration: " + a.status() + " "
            + new String(a.body(), java.nio.charset.StandardCharsets.UTF_8));
      }
      registrations.record(System.nanoTime() - start);
      HeartbeatResponse r = read(a);
      if (d.credential == null) {
        counters.registered.incrementAndGet();
      }
      if (r.credential() != null) {
        d.credential = GridToken.of(r.credential()).bearerValue();
      }
      if (r.certificate() != null) {
        counters.certified.incrementAndGet();
      }
      intervalMillis = r.heartbeatIntervalMillis();
    });
  }

  /** Starts a registered donor's heartbeats at the tracker's interval, the first at a random phase within it. */
  private void startBeating(SimDonor d) {
    long interval = intervalMillis;
    long phase = java.util.concurrent.ThreadLocalRandom.current().nextLong(interval);
    scheduler.execute(() -> d.nextDueNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(phase));
    scheduler.scheduleAtFixedRate(() -> beat(d, TimeUnit.MILLISECONDS.toNanos(interval)), phase, interval, TimeUnit.MILLISECONDS);
  }

  /** Silences {@code indexes} for good: their heartbeats stop, as if their hosts had failed. */
  public void fail(Collection<Integer> indexes) {
    for (int i : indexes) {
      donors.get(i).silenced = true;
    }
  }

  public boolean silenced(int index) {
    return donors.get(index).silenced;
  }

  /**
   * Whether donor {@code index} certainly heartbeated within {@code windowNanos} before {@code nanos}, as the tracker
   * saw it: a heartbeat due after {@code nanos - windowNanos} (so the tracker took it after that) was answered 200 before
   * {@code nanos} (so the tracker had taken it by then).
   */
  public boolean heartbeatedWithin(int index, long nanos, long windowNanos) {
    SimDonor.Beat b = donors.get(index).lastOk;
    return b != null && b.answeredNanos() < nanos && b.dueNanos() > nanos - windowNanos;
  }

  private void beat(SimDonor d, long intervalNanos) {
    long scheduled = d.nextDueNanos;
    d.nextDueNanos = scheduled + intervalNanos;
    if (d.silenced) {
      return;
    }
    Condition c = churn.at(d.index, clock.now());
    if (c == Condition.OUTAGE) {
      counters.outageSkips.incrementAndGet();
      return;
    }
    String state = c == Condition.OWNER_ACTIVE ? "BUSY" : "RUNNING";
    if (c == Condition.OWNER_ACTIVE) {
      counters.busyBeats.incrementAndGet();
    }
    long due = System.nanoTime();
    schedulerLag.record(Math.max(0, due - scheduled));
    byte[] body;
    try {
      body = TrackerHttp.JSON.writeValueAsBytes(new HeartbeatRequest(state, Enrollment.QUOTA, 0, 0, false, 0, null, null, 0L, 0L));
    } catch (JsonProcessingException e) {
      counters.error("cannot write a heartbeat: " + e.getMessage());
      return;
    }
    counters.beatsSent.incrementAndGet();
    lanes.post(d.index, Endpoints.HEARTBEAT.path(d.id), d.credential, body).whenComplete((a, e) -> answered(d, due, a, e));
  }

  private void answered(SimDonor d, long due, Answer a, Throwable e) {
    if (e != null) {
      counters.error(d.id + ": " + e.getMessage());
    } else if (a.status() == 200) {
      long now = System.nanoTime();
      beats.record(now - due);
      wire.record(a.wireNanos());
      laneWait.record(Math.max(0, now - due - a.wireNanos()));
      d.lastOk = new SimDonor.Beat(due, now);
      counters.beatsOk.incrementAndGet();
      if (read(a).repairQueued() > 0) {
        counters.repairQueuedSeen.incrementAndGet(); // a real peer would claim jobs; this slice holds no pieces
      }
    } else if (a.status() == 404) {
      counters.reRegistered.incrementAndGet(); // the tracker forgot it: rejoin as itself, as PeerDaemon does
      register(d, d.credential);
    } else {
      counters.error(d.id + ": heartbeat answered " + a.status() + " " + new String(a.body(), java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  private static HeartbeatResponse read(Answer a) {
    try {
      return TrackerHttp.JSON.readValue(a.body(), HeartbeatResponse.class);
    } catch (IOException e) {
      throw new IllegalStateException("the tracker's answer is not a HeartbeatResponse: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
