package org.cairn.peer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.member.HeartbeatResponse;
import org.cairn.core.net.PeerClient;
import org.cairn.core.security.GridToken;
import org.cairn.core.security.TicketVerifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the tracker gave this peer to take part in the grid, kept in its data directory across restarts:
 * the data-plane key connections must prove, the key the tracker signs tickets with, the data plane's
 * TLS certificate, and the peer's own credential for the control plane. Read at start (so the data
 * server serves before the tracker answers) and taken again from every registration answer.
 */
final class GridKeys {
  private static final Logger LOG = LoggerFactory.getLogger(GridKeys.class);

  private final Path dataDir;
  private final GridToken gridToken;
  private final PeerTls tls;
  private final AtomicReference<GridToken> dataKey = new AtomicReference<>();
  private final AtomicReference<TicketVerifier> tickets = new AtomicReference<>();

  /**
   * @param gridToken the token the peer was started with (a tracker older than roles sends no data key: its data plane takes this)
   * @param tls the data plane's TLS material, or null on a plain grid
   */
  GridKeys(Path dataDir, GridToken gridToken, PeerTls tls) throws IOException {
    this.dataDir = dataDir;
    this.gridToken = gridToken;
    this.tls = tls;
    dataKey.set(PeerCredential.read(dataDir, PeerCredential.DATA_KEY));
    String ticketKey = PeerCredential.readText(dataDir, PeerCredential.TICKET_KEY);
    tickets.set(ticketKey == null ? null : TicketVerifier.ofBase64(ticketKey));
  }

  /** The grid's data-plane key, once known (null before: the data server refuses connections). */
  GridToken dataKey() {
    return dataKey.get();
  }

  /** The tracker's ticket key, once known (null before: GET, HAS and PUT are refused). */
  TicketVerifier ticketVerifier() {
    return tickets.get();
  }

  /** The data server's TLS context: null on a plain grid (see {@link #tlsRequired()}), else null until certified. */
  io.netty.handler.ssl.SslContext tlsContext() {
    return tls == null ? null : tls.server();
  }

  /** Whether the data plane is TLS (the tracker is reached over https with a pinned CA). */
  boolean tlsRequired() {
    return tls != null;
  }

  /** The public key the tracker's CA certifies for this peer (sent with a registration), or null on a plain grid. */
  String tlsPublicKey() {
    return tls == null ? null : tls.publicKey();
  }

  /**
   * The proof that this peer holds its data-plane key, signed now, for a registration of {@code id} at
   * {@code address} (null on a plain grid): if this peer's first registration answer was lost, it lets the
   * enrollment token register it again.
   */
  String proveKey(String id, String address, long nowMillis) {
    return tls == null ? null : tls.proveKey(id, address, nowMillis);
  }

  /**
   * Takes what a registration answer carries: the ticket key, the data-plane key (also for the repair
   * client), the data plane's certificate and, when this peer joined with an enrollment token, its own
   * credential, kept for every later call and restart.
   */
  void adopt(HeartbeatResponse r, PeerClient peers, TrackerClient tracker) throws IOException {
    // the ticket key first: a connection the data key lets in must find it
    if (r.ticketKey() != null) {
      TicketVerifier old = tickets.get();
      if (old == null || !old.holds(r.ticketKey())) {
        tickets.set(TicketVerifier.ofBase64(r.ticketKey()));
        PeerCredential.writeText(dataDir, PeerCredential.TICKET_KEY, r.ticketKey());
      }
    }
    GridToken key = r.dataKey() != null ? GridToken.of(r.dataKey()) : gridToken;
    dataKey.set(key);
    peers.useKey(key);
    if (r.dataKey() != null) {
      PeerCredential.write(dataDir, PeerCredential.DATA_KEY, key);
    }
    if (tls != null && r.certificate() != null) {
      boolean first = tls.server() == null;
      tls.adopt(r.certificate(), r.caCertificate());
      if (first) {
        LOG.info("data plane: TLS through {} with a certificate from the tracker's CA", org.cairn.core.net.DataTls.describe());
      }
    }
    if (r.credential() != null) {
      GridToken own = GridToken.of(r.credential());
      PeerCredential.write(dataDir, PeerCredential.CREDENTIAL, own);
      tracker.useToken(own);
      LOG.info("joined the grid; this peer's own credential is in {}", PeerCredential.file(dataDir));
    }
  }
}
