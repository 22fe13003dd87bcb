package org.cairn.peer;

import java.io.Closeable;
import java.io.IOException;
import java.time.Clock;
import org.cairn.peer.server.DataServer;
import org.cairn.peer.store.FragmentStore;

/**
 * A running peer: fragment store, daemon (heartbeats, repair, scrubbing, GC) and data server, with
 * one lifecycle. {@code cairn-peer.jar} and the donor tray app both run peers through this.
 * {@link #close()} tells the tracker the peer is leaving, stops serving, then closes the store.
 */
public final class PeerRuntime implements Closeable {
  private final PeerConfig config;
  private final FragmentStore store;
  private final PeerDaemon daemon;
  private final DataServer server;
  private boolean closed;

  private PeerRuntime(PeerConfig config, FragmentStore store, PeerDaemon daemon, DataServer server) {
    this.config = config;
    this.store = store;
    this.daemon = daemon;
    this.server = server;
  }

  /** Opens the store, binds the data server and starts heartbeating. */
  public static PeerRuntime start(PeerConfig config) throws IOException, InterruptedException {
    FragmentStore store = FragmentStore.open(config.dataDir().resolve("fragments"));
    PeerDaemon daemon = null;
    DataServer server;
    try {
      daemon = new PeerDaemon(config, Clock.systemUTC(), store);
      PeerDaemon d = daemon;
      server = new DataServer(config.listen(), daemon::dataKey, daemon.tlsRequired() ? d::tlsContext : null, store, daemon,
          config.bandwidthCap(), new org.cairn.peer.server.TicketGate(daemon::ticketVerifier, daemon::id, Clock.systemUTC()));
    } catch (IOException | InterruptedException | RuntimeException e) {
      if (daemon != null) {
        daemon.close();
      }
      store.close();
      throw e;
    }
    daemon.start(server.port());
    return new PeerRuntime(config, store, daemon, server);
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
    daemon.close();
    server.close();
    store.close();
  }
}
