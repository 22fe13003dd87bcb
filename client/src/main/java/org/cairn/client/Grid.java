package org.cairn.client;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.cairn.client.bases.BaseCache;
import org.cairn.client.fetch.Fetcher;
import org.cairn.client.fetch.Verifier;
import org.cairn.client.keys.AppKeys;
import org.cairn.client.store.StoreOptions;
import org.cairn.client.store.StoreOutcome;
import org.cairn.client.store.StoreSession;
import org.cairn.client.tuning.ClientTuning;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.FolderPolicy;
import org.cairn.core.api.catalog.LocatedVersion;
import org.cairn.core.api.catalog.VersionRow;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.status.AppSummary;
import org.cairn.core.api.status.DurabilityView;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.net.PeerClient;
import org.cairn.core.security.GridToken;

/**
 * A grid as a client uses it (restic's {@code Repository}): owns the tracker client, the pooled peer
 * client, the event loop and the timeouts, and offers store, fetch, verify, versions and delete.
 * Commands only parse and print; everything they do goes through here. A grid is opened with a
 * {@link ClientTuning} (the store's batching and linger, the host's cache of bases, ...; the
 * shorter {@code open}s read it from this JVM's {@code -Dcairn.*} properties), which each store and
 * fetch uses. Closing it closes the connections and the event loop.
 */
public final class Grid implements Closeable {
  /** Default timeout of one call to the tracker or a peer. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  private final TrackerClient tracker;
  private final EventLoopGroup group;
  private final PeerClient peers;
  private final Grid owner;
  private final ClientTuning tuning;

  private Grid(TrackerClient tracker, EventLoopGroup group, PeerClient peers, Grid owner, ClientTuning tuning) {
    this.tracker = tracker;
    this.group = group;
    this.peers = peers;
    this.owner = owner;
    this.tuning = tuning;
  }

  /**
   * This grid lent to one command (a resident agent's open connections): the same tracker client,
   * peer pool and event loop, whose {@link #close} leaves them open for the next command.
   */
  public Grid borrowed() {
    return new Grid(tracker, group, peers, owner == null ? this : owner, tuning);
  }

  /** Where stores put their versions' catalog records once committed; null: before the store returns. */
  private volatile java.util.concurrent.ExecutorService records;

  /**
   * Stores of this grid (and of the grids it lends) put each version's catalog record after they
   * return (a resident agent: the job does not wait for it); {@link #close} waits up to 30 s for those
   * still running.
   */
  public Grid recordsInBackground() {
    java.util.concurrent.atomic.AtomicLong n = new java.util.concurrent.atomic.AtomicLong();
    records = java.util.concurrent.Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "cairn-record-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    return this;
  }

  /**
   * Starts indexing this host's cache of bases now, on its own thread, as a store (delta on) or a fetch would at its
   * start: a one-command process calls it while it parses its arguments, so the index (~37,000 records at the cache's
   * budget, 0.1-0.2 s) is ready when the first chunk wants a base instead of that chunk waiting for it.
   */
  public static void indexBasesAhead() {
    try {
      indexBasesAhead(ClientTuning.fromSystemProperties());
    } catch (IllegalArgumentException e) {
      // a property out of range: the command's Grid.open says so
    }
  }

  /** {@link #indexBasesAhead()} for the cache {@code tuning} names. */
  public static void indexBasesAhead(ClientTuning tuning) {
    BaseCache.standard(tuning);
  }

  /** A grid tuned by this JVM's {@code -Dcairn.*} properties ({@link ClientTuning#fromSystemProperties}). */
  public static Grid open(URI tracker, GridToken token, Duration timeout) {
    return open(List.of(tracker), token, timeout);
  }

  /**
   * A grid whose tracker group is {@code trackers} (calls fail over between them), tuned by this JVM's {@code -Dcairn.*}
   * properties ({@link ClientTuning#fromSystemProperties}: one out of range fails here).
   */
  public static Grid open(List<URI> trackers, GridToken token, Duration timeout) {
    return open(trackers, token, timeout, ClientTuning.fromSystemProperties());
  }

  /** A grid whose tracker group is {@code trackers}, whose stores and fetches are tuned by {@code tuning}. */
  public static Grid open(List<URI> trackers, GridToken token, Duration timeout, ClientTuning tuning) {
    java.util.Objects.requireNonNull(tuning, "tuning");
    URI tracker = trackers.get(0);
    EventLoopGroup group = new NioEventLoopGroup(2, (java.util.concurrent.ThreadFactory) r -> {
      // shared by every command of a process (an agent's): it inherits no thread-local context of the command that
      // happened to start it (an agent's per-command log would otherwise follow these threads while that command runs)
      Thread t = new Thread(null, r, "cairn-io", 0, false);
      t.setDaemon(true);
      return t;
    });
    PeerClient peers = new PeerClient(group, token, timeout);
    if ("https".equalsIgnoreCase(tracker.getScheme()) && token.caPin().isPresent()) {
      peers.useTls(token.caPin().get()); // a grid with TLS: the data plane too, pinned to the same CA
    }
    return new Grid(new TrackerClient(trackers, token, timeout), group, peers, null, tuning);
  }

  public TrackerClient tracker() {
    return tracker;
  }

  public PeerClient peers() throws IOException {
    return dataPlaneOf();
  }

  private boolean keyed;

  private PeerClient dataPlaneOf() throws IOException {
    return owner == null ? dataPlane() : owner.dataPlane();
  }

  /**
   * The peer client, proving the grid's data-plane key: asked of the tracker once, at the first
   * data-plane use (a tracker older than roles has none, and its data plane takes the grid token).
   */
  private synchronized PeerClient dataPlane() throws IOException {
    if (!keyed) {
      GridToken key = tracker.dataPlaneKey();
      if (key != null) {
        peers.useKey(key);
      }
      keyed = true;
    }
    return peers;
  }

  /**
   * Keeps open the connections to peers a command used within {@code within} ({@link PeerClient#keepAlive}):
   * a resident agent calls it more often than a peer closes an idle connection. Opens none.
   */
  public int keepConnections(Duration within) {
    return peers.keepAlive(within);
  }

  public EventLoopGroup group() {
    return group;
  }

  /** How this grid's stores and fetches are tuned. */
  public ClientTuning tuning() {
    return tuning;
  }

  /** Stores the image {@code in} (about {@code sizeHint} bytes; 0 or less: unknown) as a version ({@link StoreSession}). */
  public StoreOutcome store(InputStream in, long sizeHint, StoreOptions options) throws IOException {
    return new StoreSession(tracker, dataPlaneOf(), options, tuning, (owner == null ? this : owner).records).run(in, sizeHint);
  }

  /** The version app/node/step (latest when step <= 0) with its chunks' coding and holders. */
  public LocatedVersion locate(String app, String node, long step) throws IOException {
    return tracker.locate(app, node, step);
  }

  /** Part {@code part} of a checkpoint set's version app/node/step (-1: a plain version). */
  public LocatedVersion locate(String app, String node, long step, int part) throws IOException {
    return tracker.locate(app, node, step, part);
  }

  /**
   * Every manifest of the version app/node/step (latest when step <= 0): its parts in order for a
   * checkpoint set, else the one.
   */
  public List<LocatedVersion> locateParts(String app, String node, long step) throws IOException {
    VersionRow row = null;
    for (VersionRow v : tracker.versions(app, node)) {
      if (step > 0 ? v.step() == step : (row == null || v.step() > row.step())) {
        row = v;
      }
    }
    if (row == null || row.parts() == null) {
      return List.of(tracker.locate(app, node, step)); // a plain version, or the tracker's "no such version"
    }
    List<LocatedVersion> out = new java.util.ArrayList<>();
    for (int p = 0; p < row.parts(); p++) {
      out.add(tracker.locate(app, node, row.step(), p));
    }
    return out;
  }

  public Fetcher.Result fetch(LocatedVersion version, Fetcher.Options options, OutputStream out) throws IOException {
    return new Fetcher(tracker, dataPlaneOf(), group, tuning).fetch(version, options, out);
  }

  /** Fetches a version whose chunks may be sealed: {@code crypto} from {@link AppKeys#forVersion}. */
  public Fetcher.Result fetch(LocatedVersion version, Fetcher.Options options, OutputStream out, ChunkCrypto crypto) throws IOException {
    return new Fetcher(tracker, dataPlaneOf(), group, tuning).fetch(version, options, out, crypto);
  }

  public Verifier.Report verify(LocatedVersion version, boolean readData, int threads) throws IOException {
    return verify(version, readData, threads, ChunkCrypto.PLAIN);
  }

  /** With {@code crypto} (the app key, or PLAIN when it is not at hand) --read-data opens sealed chunks too. */
  public Verifier.Report verify(LocatedVersion version, boolean readData, int threads, ChunkCrypto crypto) throws IOException {
    return new Verifier(tracker, dataPlaneOf(), group).verify(version, readData, threads, crypto);
  }

  /** The checkpoint sets of app/node whose parts are not all committed (no version yet). */
  public List<org.cairn.core.api.catalog.SetProgress> pendingSets(String app, String node) throws IOException {
    return tracker.pendingSets(app, node);
  }

  public List<VersionRow> versions(String app, String node) throws IOException {
    return tracker.versions(app, node);
  }

  public void delete(String app, String node, long step) throws IOException {
    tracker.deleteVersion(app, node, step);
  }

  public List<AppSummary> apps() throws IOException {
    return tracker.apps();
  }

  public List<PeerView> peerList() throws IOException {
    return tracker.peers();
  }

  public DurabilityView durability() throws IOException {
    return tracker.durability();
  }

  public FolderPolicy policy(String app) throws IOException {
    return tracker.policy(app);
  }

  public FolderPolicy setPolicy(String app, String folder) throws IOException {
    return tracker.setPolicy(app, folder);
  }

  @Override
  public void close() {
    if (owner != null) {
      return; // lent: the owner closes
    }
    java.util.concurrent.ExecutorService r = records;
    if (r != null) {
      r.shutdown();
      try {
        if (!r.awaitTermination(30, TimeUnit.SECONDS)) {
          org.slf4j.LoggerFactory.getLogger(Grid.class).warn("stopping with catalog records still being stored; those versions are"
              + " committed, but recovery from the peers would not find them");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    peers.close();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
  }
}
