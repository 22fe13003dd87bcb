package org.cairn.tracker.group;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.storage.RaftStorage;
import org.cairn.core.api.status.ClusterView;
import org.cairn.core.config.HostPort;
import org.cairn.tracker.api.HttpApiServer;
import org.cairn.tracker.service.TrackerConfig;
import org.cairn.tracker.service.TrackerServices;
import org.cairn.tracker.store.Batch;
import org.cairn.tracker.store.TrackerStore;
import org.cairn.tracker.tls.TrackerCa;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member of a replicated tracker group, the composition root of its process: its store, its Raft
 * server (Apache Ratis, log in {@code DATA/raft}), the HTTP port and, while it leads, the tracker's
 * services built from the store it has applied the log to. It acts on Ratis's role events (through
 * {@link TrackerStateMachine}), one at a time on its own thread: a member that Ratis reports ready to
 * lead commits a barrier entry (so every earlier entry is applied here), then starts the services; one
 * that stops leading, or hears another was elected, closes them and answers 503 naming the leader.
 *
 * <p>Election timeouts are 1-2 s (a follower that hears nothing from the leader for a random time in
 * that range starts an election): a leader killed outright is replaced in about 1-3 s.
 */
public final class TrackerMember implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(TrackerMember.class);

  private final TrackerConfig config;
  private final GroupSpec spec;
  private final Clock clock;
  private final TrackerStore store;
  private final RaftServer server;
  private final RaftServer.Division division;
  private final RaftReplicator replicator;
  private final GroupFront front;
  private final HttpApiServer http;
  /** Acts on role events one at a time, in the order Ratis reported them. */
  private final ScheduledExecutorService roles;
  /** Open once the constructor is done: role events wait for it, so none acts on a half-built member. */
  private final CountDownLatch built = new CountDownLatch(1);
  private final String url;
  private TrackerServices services;
  private volatile boolean pagePublic;
  private volatile boolean pageApps;
  private long servingTerm = -1;
  private boolean closed;

  public TrackerMember(TrackerConfig config, GroupSpec spec, Clock clock) throws IOException, InterruptedException {
    if (config.tls() && !Files.exists(config.dataDir().resolve("tls").resolve(TrackerCa.KEY_FILE))) {
      throw new IllegalArgumentException("a tracker group member needs the group's CA (one CA, so tokens pin every"
          + " member and members trust each other): make it once with 'cairn-tracker ca create --out DIR', copy DIR to each"
          + " member and start each with --tls-ca DIR");
    }
    this.config = config;
    this.spec = spec;
    this.clock = clock;
    roles = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "tracker-role");
      t.setDaemon(true);
      return t;
    });
    try {
      store = TrackerStore.open(config.dataDir().resolve("db"));
    } catch (IOException | RuntimeException e) {
      roles.shutdownNow();
      throw e;
    }
    RaftServer srv = null;
    HttpApiServer api = null;
    try {
      TrackerCa ca = config.tls() ? TrackerCa.open(config.dataDir(), config.listen().host()) : null;
      RaftServer.Builder builder = RaftServer.newBuilder();
      if (ca != null) {
        builder.setParameters(RaftTls.parameters(ca, spec));
      }
      srv = builder.setServerId(RaftPeerId.valueOf(spec.self()))
          .setStateMachine(new TrackerStateMachine(store, config.dataDir(), roleEvents()))
          .setProperties(RaftSettings.properties(config.dataDir().resolve("raft"), spec.members().get(spec.self()), spec.snapshotEvery()))
          .setGroup(RaftGroup.valueOf(RaftSettings.GROUP, RaftSettings.peers(spec)))
          .setOption(RaftStorage.StartupOption.RECOVER)
          .build();
      srv.start();
      division = srv.getDivision(RaftSettings.GROUP);
      replicator = new RaftReplicator(srv, RaftPeerId.valueOf(spec.self()), RaftSettings.GROUP, Duration.ofSeconds(10));
      store.replicateThrough(replicator);
      front = new GroupFront(this::view);
      api = new HttpApiServer(config.listen(), front, ca == null ? null : org.cairn.tracker.tls.HttpsContext.of(ca, config.dataDir()));
    } catch (IOException | InterruptedException | RuntimeException e) {
      synchronized (this) {
        closed = true;
      }
      built.countDown();
      roles.shutdownNow();
      if (srv != null) {
        srv.close();
      }
      store.close();
      throw e;
    }
    server = srv;
    http = api;
    url = (config.tls() ? "https://" : "http://") + config.listen().host() + ":" + http.port();
    built.countDown();
    LOG.info("tracker {} of group {} serving {} (replicating on {}{}; election timeout {}-{} ms)", spec.self(),
        String.join(",", spec.members().keySet()), url, spec.members().get(spec.self()),
        config.tls() ? " over mutual TLS with the group's CA" : " in plain text: members must share a trusted network", RaftSettings.ELECTION_MIN.toLong(TimeUnit.MILLISECONDS),
        RaftSettings.ELECTION_MAX.toLong(TimeUnit.MILLISECONDS));
  }

  /** This member's store (tests in this package read what was applied here). */
  TrackerStore store() {
    return store;
  }

  /** The URL this member's API is served at. */
  public String url() {
    return url;
  }

  public int port() {
    return http.port();
  }

  /** The group as this member sees it now. */
  public ClusterView view() {
    RaftPeerId leader = division.getInfo().getLeaderId();
    String leaderId = leader == null ? "" : leader.toString();
    List<ClusterView.Member> members = new ArrayList<>();
    for (Map.Entry<String, HostPort> m : spec.members().entrySet()) {
      String memberUrl = null;
      try {
        byte[] u = store.get(TrackerStore.Family.CLUSTER, ("url/" + m.getKey()).getBytes(StandardCharsets.UTF_8));
        memberUrl = u == null ? null : new String(u, StandardCharsets.UTF_8);
      } catch (IOException e) {
        LOG.debug("reading {}'s URL failed", m.getKey(), e);
      }
      members.add(new ClusterView.Member(m.getKey(), m.getValue().toString(), m.getKey().equals(leaderId) ? "leader" : "follower",
          memberUrl));
    }
    return new ClusterView(leaderId, members, spec.self(), division.getInfo().getLastAppliedIndex());
  }

  /** {@code --status-page}: applied to the services of every leadership, this one's included. */
  public synchronized void setStatusPagePublic(boolean open, boolean apps) {
    pagePublic = open;
    pageApps = apps;
    if (services != null) {
      services.api().setStatusPagePublic(open, apps);
    }
  }

  /** Whether this member serves the grid now (it leads and its services run). */
  public synchronized boolean serving() {
    return services != null;
  }

  /** Waits up to {@code timeout} until this member serves the grid ({@code true}) or stops; returns whether it got there. */
  public synchronized boolean awaitServing(boolean serve, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long left = timeout.toNanos();
    while ((services != null) != serve && left > 0) {
      TimeUnit.NANOSECONDS.timedWait(this, left);
      left = deadline - System.nanoTime();
    }
    return (services != null) == serve;
  }

  /** Ratis's role events, each handed to this member's role thread. */
  private RoleEvents roleEvents() {
    return new RoleEvents() {
      @Override
      public void leaderReady() {
        onRole(TrackerMember.this::takeLead);
      }

      @Override
      public void notLeader() {
        onRole(() -> stepDown("it no longer leads"));
      }

      @Override
      public void leaderChanged(String leader) {
        if (!leader.equals(spec.self())) {
          onRole(() -> stepDown("it no longer leads (" + leader + " does)"));
        }
      }
    };
  }

  /** Runs {@code action} on the role thread once this member is built, unless it is closed by then. */
  private void onRole(Runnable action) {
    try {
      roles.execute(() -> act(action));
    } catch (RejectedExecutionException e) {
      LOG.debug("tracker {} is stopping; a role event is dropped", spec.self());
    }
  }

  private void act(Runnable action) {
    try {
      built.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    synchronized (this) {
      if (closed) {
        return;
      }
      try {
        action.run();
      } catch (RuntimeException e) {
        LOG.error("acting on a change of this member's role failed", e);
      }
    }
  }

  /**
   * Ratis reported this member ready to lead: serve the grid for this term, unless it stopped leading
   * since (a not-leader event then follows) or already serves this term.
   */
  private void takeLead() {
    DivisionInfo info = division.getInfo();
    if (!info.isLeader()) {
      return;
    }
    long term = info.getCurrentTerm();
    if (services != null && term == servingTerm) {
      return;
    }
    if (services != null) {
      stepDown("a new term began");
    }
    if (!lead(term)) {
      // no event will come again while it stays leader: try again shortly
      try {
        roles.schedule(() -> act(this::takeLead), 1, TimeUnit.SECONDS);
      } catch (RejectedExecutionException e) {
        LOG.debug("tracker {} is stopping; not trying to lead again", spec.self());
      }
    }
  }

  /** Starts the services for {@code term}; false if they could not be started. */
  private boolean lead(long term) {
    long started = System.nanoTime();
    TrackerServices s = null;
    try {
      // the barrier: once this entry is applied here, so is every entry an earlier leader committed
      store.write(new Batch().put(TrackerStore.Family.CLUSTER, ("url/" + spec.self()).getBytes(StandardCharsets.UTF_8),
          url.getBytes(StandardCharsets.UTF_8)));
      SharedSecrets.shareOnce(store, replicator, config.dataDir(), config.token(), clock);
      s = new TrackerServices(config, clock, store);
      s.membership().allowForOwnDelay(http::lagMillis); // heartbeats its loops take late do not make donors DOWN
      s.credentials().tokens().shareThrough((relative, content) -> replicator.submit(LogEntries.file(relative, content)));
      s.api().setCluster(this::view);
      s.api().setStatusPagePublic(pagePublic, pageApps);
      services = s;
      servingTerm = term;
      front.serve(s.api());
      notifyAll();
      LOG.info("tracker {} leads its group (term {}); serving the grid {} ms after it was ready to", spec.self(), term,
          (System.nanoTime() - started) / 1_000_000);
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.warn("tracker {} could not take up the lead (term {}); trying again in 1 s: {}", spec.self(), term, e.toString());
      if (s != null) {
        s.close();
      }
      return false;
    }
  }

  private void stepDown(String why) {
    if (services == null) {
      return;
    }
    front.serve(null);
    services.close();
    services = null;
    servingTerm = -1;
    notifyAll();
    store.dropSoon();
    LOG.info("tracker {} stopped serving the grid: {}", spec.self(), why);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    roles.shutdownNow();
    front.serve(null);
    http.close();
    if (services != null) {
      services.close();
      services = null;
    }
    try {
      server.close();
    } catch (IOException e) {
      LOG.warn("stopping the Raft server failed: {}", e.toString());
    }
    store.close();
    LOG.info("tracker {} stopped", spec.self());
  }
}
