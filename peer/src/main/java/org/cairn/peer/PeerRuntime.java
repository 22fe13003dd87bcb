package org.cairn.peer;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.Closeable;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.availability.HostState;
import org.cairn.core.net.PeerClient;
import org.cairn.core.security.GridToken;
import org.cairn.peer.gc.BadFragmentReports;
import org.cairn.peer.gc.InventoryGc;
import org.cairn.peer.gc.RebuiltConfirmations;
import org.cairn.peer.load.HostLoad;
import org.cairn.peer.load.Throttle;
import org.cairn.peer.repair.RepairLimits;
import org.cairn.peer.repair.RepairWorker;
import org.cairn.peer.scrub.Scrubber;
import org.cairn.peer.server.DataServer;
import org.cairn.peer.server.TicketGate;
import org.cairn.peer.store.FragmentStore;

/**
 * The peer's composition root, as {@code Tracker} is the tracker's: builds every part of a running
 * peer from its configuration, wires them, starts them, and stops them in one order. The parts:
 * the fragment store; the tracker client and this peer's credentials; the daemon (registration,
 * heartbeats, state and admission); the data-plane client and its I/O thread (repair reads and
 * writes through it); the repair worker; the scrubber; inventory GC with its audit; the data server.
 * {@code cairn-peer.jar} and the donor tray app both run peers through this.
 *
 * {@link #close()} stops the background work (scrubber, repair, the data-plane client), the
 * scheduler (heartbeats and GC), tells the tracker the peer is leaving, stops serving, then closes
 * the store.
 */
public final class PeerRuntime implements Closeable {
  private final PeerConfig config;
  private final FragmentStore store;
  private final PeerDaemon daemon;
  private final DataServer server;
  private final Scrubber scrubber;
  private final RepairWorker repair;
  private final PeerClient peers;
  private final EventLoopGroup peerIo;
  private final ScheduledExecutorService scheduler;
  private boolean closed;

  private PeerRuntime(Parts p) {
    this.config = p.config;
    this.store = p.store;
    this.daemon = p.daemon;
    this.server = p.server;
    this.scrubber = p.scrubber;
    this.repair = p.repair;
    this.peers = p.peers;
    this.peerIo = p.peerIo;
    this.scheduler = p.scheduler;
  }

  /** What start() has built so far: closed in reverse if a later part fails. */
  private static final class Parts {
    final PeerConfig config;
    final Deque<AutoCloseable> built = new ArrayDeque<>();
    FragmentStore store;
    PeerDaemon daemon;
    DataServer server;
    Scrubber scrubber;
    RepairWorker repair;
    PeerClient peers;
    EventLoopGroup peerIo;
    ScheduledExecutorService scheduler;

    Parts(PeerConfig config) {
      this.config = config;
    }

    <T extends AutoCloseable> T add(T part) {
      built.push(part);
      return part;
    }

    void closeAll(Throwable cause) {
      while (!built.isEmpty()) {
        try {
          built.pop().close();
        } catch (Exception e) {
          cause.addSuppressed(e);
        }
      }
    }
  }

  /** Opens the store, builds and wires the parts, binds the data server and starts heartbeating. */
  public static PeerRuntime start(PeerConfig config) throws IOException, InterruptedException {
    Parts p = new Parts(config);
    Clock clock = Clock.systemUTC();
    try {
      String id = PeerIdentity.of(config);
      p.store = p.add(FragmentStore.open(config.dataDir().resolve("fragments"), config.softSyncInterval(), config.directIo()));
      TrackerClient tracker = new TrackerClient(config.trackers(), config.token(), Duration.ofSeconds(5));
      GridToken own = PeerCredential.read(config.dataDir(), PeerCredential.CREDENTIAL);
      if (own != null) {
        tracker.useToken(own); // the credential this peer's first registration gave it
      }
      // a tracker reached over https with a pinned CA: the data plane is TLS too, certified by that CA
      PeerTls tls = "https".equalsIgnoreCase(config.tracker().getScheme()) && config.token().caPin().isPresent()
          ? PeerTls.open(config.dataDir(), config.token().caPin().get()) : null;
      p.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "peer-heartbeat");
        t.setDaemon(true);
        return t;
      });
      p.add(p.scheduler::shutdownNow);
      p.peerIo = new NioEventLoopGroup(1, (java.util.concurrent.ThreadFactory) r -> {
        Thread t = new Thread(r, "peer-client-io");
        t.setDaemon(true);
        return t;
      });
      p.add(() -> p.peerIo.shutdownGracefully(0, 1, TimeUnit.SECONDS));
      GridToken dataKey = PeerCredential.read(config.dataDir(), PeerCredential.DATA_KEY);
      p.peers = p.add(new PeerClient(p.peerIo, dataKey != null ? dataKey : config.token(), Duration.ofSeconds(10)));
      if (tls != null) {
        p.peers.useTls(tls.caPin());
      }
      BadFragmentReports bad = new BadFragmentReports(tracker, id);
      GridKeys keys = new GridKeys(config.dataDir(), config.token(), tls); // read before the data server serves
      DonatedSpace space = new DonatedSpace(p.store, config.dataDir(), config.quotaBytes(), config.minFreeBytes());
      HostLoad load = HostLoad.forPeer(config.dataDir(), p.store::ioBytes, config.ioCapacity(), config.tau1(), config.tau2(),
          config.maxClients());
      PeerDaemon daemon = p.add(new PeerDaemon(config, clock, p.store, id, tracker, keys, space, load, p.peers, bad, p.scheduler));
      p.daemon = daemon;
      RepairLimits repairLimits = new RepairLimits(config.repairThreads(), new Throttle(config.repairDownloadRate()),
          new Throttle(config.repairUploadRate()), RepairLimits.DEFAULT_BATCH_BYTES);
      p.repair = p.add(new RepairWorker(id, tracker, p.store, p.peers, repairLimits, Duration.ofSeconds(10),
          () -> daemon.registered() && !daemon.paused() && daemon.state() == HostState.RUNNING));
      // under a cap, repair's share comes out of the data server's while repairs run: the two together stay within it
      p.repair.onActive(active -> {
        DataServer server = p.server;
        if (server != null) {
          long up = config.effectiveUploadCap();
          long down = config.effectiveDownloadCap();
          server.limit(active && up > 0 ? up - config.repairUploadRate() : up, active && down > 0 ? down - config.repairDownloadRate() : down);
        }
      });
      daemon.onRepairQueued(p.repair::wake);
      daemon.reportRepairTraffic(p.repair::trafficBytes);
      p.scrubber = p.add(new Scrubber(p.store, config.scrubPeriod(), config.scrubMaxRate(),
          () -> !daemon.paused() && daemon.state() != HostState.BUSY && daemon.state() != HostState.LOADED));
      p.store.onCorruption(k -> {
        bad.add(k, "corrupt on disk");
        daemon.reportBadSoon();
      });
      InventoryGc gc = new InventoryGc(p.store, tracker, id, bad, clock, config.gcGrace());
      // rebuilt pieces landed here are listed to the tracker within a second or two, not at the next GC pass
      RebuiltConfirmations rebuilt = new RebuiltConfirmations(listed -> tracker.garbage(id, listed), p.scheduler,
          Duration.ofSeconds(1), daemon::registered);
      p.repair.onStoredLocally(rebuilt::stored);
      p.server = p.add(new DataServer(config.listen(), keys::dataKey, keys.tlsRequired() ? keys::tlsContext : null, p.store,
          daemon.admission(), config.effectiveUploadCap(), config.effectiveDownloadCap(), new TicketGate(keys::ticketVerifier, daemon::id, clock, rebuilt::stored),
          config.connectionLimits(), config.tlsWrapBytes()));
      daemon.start(p.server.port());
      long every = config.gcInterval().toMillis();
      p.scheduler.scheduleWithFixedDelay(() -> {
        if (daemon.registered()) {
          gc.run();
          p.store.requestDeadSpaceCompaction(daemon.deadSpaceAllowance());
        }
      }, every, every, TimeUnit.MILLISECONDS);
      p.scrubber.start();
      p.store.requestDeadSpaceCompaction(daemon.deadSpaceAllowance()); // e.g. left by deletes before a restart
    } catch (IOException | InterruptedException | RuntimeException e) {
      p.closeAll(e);
      throw e;
    }
    return new PeerRuntime(p);
  }

  public PeerConfig config() {
    return config;
  }

  public PeerDaemon daemon() {
    return daemon;
  }

  public FragmentStore store() {
    return store;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    scrubber.close();
    repair.close();
    peers.close();
    peerIo.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    daemon.stop();
    scheduler.shutdownNow();
    try {
      scheduler.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    daemon.close(); // tells the tracker this peer is leaving
    server.close();
    store.close();
  }
}
