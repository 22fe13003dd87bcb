package org.cairn.tracker.api;

import static org.cairn.tracker.api.Requests.fragmentKey;
import static org.cairn.tracker.api.Requests.json;
import static org.cairn.tracker.api.Requests.parseLong;
import static org.cairn.tracker.api.Requests.read;
import static org.cairn.tracker.api.Requests.requireMethod;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.cairn.core.api.Acknowledged;
import org.cairn.core.api.BadPieces;
import org.cairn.core.api.HeartbeatRequest;
import org.cairn.core.api.HeartbeatResponse;
import org.cairn.core.api.Inventory;
import org.cairn.core.api.PeerView;
import org.cairn.core.api.RegisterRequest;
import org.cairn.core.api.RepairClaim;
import org.cairn.core.api.RepairJob;
import org.cairn.core.api.RepairOutcome;
import org.cairn.core.availability.HostState;
import org.cairn.core.config.HostPort;
import org.cairn.tracker.auth.Credentials;
import org.cairn.tracker.auth.Principal;
import org.cairn.tracker.auth.Role;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.repair.RepairService;
import org.cairn.tracker.tls.PeerCertifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What donors' peers ask of the tracker under {@code /api/v1/peers}: registration, heartbeats, leaving,
 * inventory GC, repair jobs and their outcomes, the pieces a peer should hold (its audit), bad pieces;
 * and the peer list and views the status page reads.
 */
final class PeerRoutes {
  private static final Logger LOG = LoggerFactory.getLogger(PeerRoutes.class);

  private final Credentials credentials;
  private final Membership membership;
  private final Catalog catalog;
  private final RepairService repair;
  private final Metrics metrics;
  private final Clock clock;
  private final Duration heartbeatInterval;
  private final Grants grants;
  private final HistoryRoutes history;
  private volatile PeerCertifier certifier;

  PeerRoutes(Credentials credentials, Membership membership, Catalog catalog, RepairService repair, Metrics metrics, Clock clock,
      Duration heartbeatInterval, Grants grants, HistoryRoutes history) {
    this.credentials = credentials;
    this.membership = membership;
    this.catalog = catalog;
    this.repair = repair;
    this.metrics = metrics;
    this.clock = clock;
    this.heartbeatInterval = heartbeatInterval;
    this.grants = grants;
    this.history = history;
  }

  void setCertifier(PeerCertifier certifier) {
    this.certifier = certifier;
  }

  PeerCertifier certifier() {
    return certifier;
  }

  Response route(String method, String id, String action, Map<String, String> query, byte[] body, Principal who)
      throws ApiException, IOException {
    if (id == null) {
      if (method.equals("GET")) {
        return json(200, membership.peers());
      }
      requireMethod(method, "POST");
      return register(read(body, RegisterRequest.class), who);
    }
    if (action == null) {
      requireMethod(method, "GET");
      return json(200, known(id));
    }
    switch (action) {
      case "heartbeat": {
        requireMethod(method, "POST");
        HeartbeatRequest h = read(body, HeartbeatRequest.class);
        if (!membership.heartbeat(id, h)) {
          throw new ApiException(404, "unknown peer '" + id + "'; register first (POST /api/v1/peers)");
        }
        metrics.heartbeat();
        if (h.softBoot() != null && h.softDurable() != null) {
          catalog.soft().onHeartbeat(id, h.softBoot(), h.softDurable());
        }
        return json(200, new HeartbeatResponse(id, heartbeatInterval.toMillis(), clock.millis(), repair.queued()));
      }
      case "leave":
        requireMethod(method, "POST");
        if (!membership.leave(id)) {
          throw new ApiException(404, "unknown peer '" + id + "'");
        }
        return json(200, new Acknowledged.PeerLeft(id, HostState.DOWN.name()));
      case "inventory":
        requireMethod(method, "POST");
        known(id);
        return inventory(id, read(body, Inventory.class));
      case "repair": {
        // a peer claims repair jobs
        requireMethod(method, "POST");
        known(id);
        RepairClaim claim = body.length == 0 ? new RepairClaim(4) : read(body, RepairClaim.class);
        int max = Math.max(0, Math.min(64, claim.max() == null ? 4 : claim.max()));
        List<RepairJob> jobs = new ArrayList<>();
        for (RepairJob j : repair.claim(id, max)) {
          jobs.add(grants.withTickets(j, who));
        }
        return json(200, new RepairClaim.Jobs(jobs, repair.queued()));
      }
      case "repaired": {
        requireMethod(method, "POST");
        known(id);
        RepairClaim.Report report = read(body, RepairClaim.Report.class);
        List<RepairOutcome> outcomes = report.outcomes() == null ? List.of() : report.outcomes();
        repair.report(id, outcomes);
        return json(200, new RepairClaim.Accepted(outcomes.size()));
      }
      case "assigned": {
        // the fragments the index says this peer holds, page by page (the peer audits them)
        requireMethod(method, "GET");
        known(id);
        int limit = (int) Math.max(1, Math.min(100_000, query.containsKey("limit") ? parseLong(query.get("limit"), "limit") : 10_000));
        return json(200, catalog.holders().assigned(id, query.get("after"), limit));
      }
      case "bad":
        requireMethod(method, "POST");
        known(id);
        return bad(id, read(body, BadPieces.class));
      case "history":
        return history.peerHistory(method, id, query);
      default:
        throw new ApiException(404, "no such peer action '" + action + "'");
    }
  }

  private PeerView known(String id) throws ApiException {
    PeerView v = membership.peer(id);
    if (v == null) {
      throw new ApiException(404, "unknown peer '" + id + "'");
    }
    return v;
  }

  /** Inventory GC: the peer lists what it holds, the tracker answers what is garbage. */
  private Response inventory(String id, Inventory inv) throws ApiException, IOException {
    List<String> hex = inv.keys() == null ? List.of() : inv.keys();
    if (hex.size() > 100_000) {
      throw new ApiException(400, "send at most 100,000 keys per call, got " + hex.size());
    }
    List<byte[]> keys = new ArrayList<>();
    for (String k : hex) {
      keys.add(fragmentKey(k));
    }
    List<String> garbage = new ArrayList<>();
    for (byte[] k : catalog.holders().garbage(id, keys)) {
      garbage.add(HexFormat.of().formatHex(k));
    }
    return json(200, new Inventory.Garbage(garbage));
  }

  /** Bad fragments held by this peer, reported by the peer itself (scrub, read) or by a client (fetch). */
  private Response bad(String id, BadPieces report) throws ApiException, IOException {
    String reporter = report.reporter() == null ? id : report.reporter();
    List<BadPieces.Piece> pieces = report.fragments() == null ? List.of() : report.fragments();
    if (pieces.size() > 100_000) {
      throw new ApiException(400, "report at most 100,000 fragments per call, got " + pieces.size());
    }
    Map<byte[], String> fragments = new LinkedHashMap<>();
    for (BadPieces.Piece f : pieces) {
      fragments.put(fragmentKey(f.key()), f.reason() == null ? "bad" : f.reason());
    }
    return json(200, new BadPieces.Answer(repair.reportBad(id, fragments, reporter)));
  }

  /**
   * A registration. A peer credential registers only as its own peer; a donor enrollment token
   * registers a new peer (taking one of its uses) and the answer carries that peer's own credential.
   * Every registration's answer carries the data-plane key.
   */
  private Response register(RegisterRequest r, Principal who) throws ApiException, IOException {
    Role role = who.role();
    if (role == Role.PEER && !who.peer().equals(r.id())) {
      throw new ApiException(403, who.describe() + " may register only as peer " + who.peer());
    }
    if (role == Role.DONOR) {
      if (r.id() != null && membership.peer(r.id()) != null) {
        throw new ApiException(403, "peer " + r.id() + " is already registered; it registers again with its own credential"
            + " (the peer.credential file in its data directory), or ask the operator");
      }
      if (!credentials.tokens().takeUse(who.tokenId())) {
        throw new ApiException(403, "enrollment token " + who.tokenId() + " has no registrations left");
      }
    }
    PeerView v = membership.register(r);
    metrics.heartbeat();
    String credential = role == Role.DONOR
        ? credentials.tokens().issue(Role.PEER, null, false, null, null, v.id(),
            "issued to peer " + v.id() + " at registration with " + who.tokenId(), clock.millis())
        : null;
    if (credential != null) {
      LOG.info("peer {} joined with enrollment token {}; issued its own credential", v.id(), who.tokenId());
    }
    PeerCertifier.Issued cert = null;
    PeerCertifier c = certifier;
    if (r.publicKey() != null && c != null) {
      try {
        cert = c.certify(v.id(), HostPort.parse(v.address()).host(), r.publicKey());
      } catch (IllegalArgumentException | IOException e) {
        throw new ApiException(400, e.getMessage());
      }
    }
    return json(200, new HeartbeatResponse(v.id(), heartbeatInterval.toMillis(), clock.millis(), repair.queued(),
        credentials.dataKey().bearerValue(), credential, cert == null ? null : cert.certificate(),
        cert == null ? null : cert.caCertificate(), credentials.tickets().peerKey(v.id())));
  }
}
