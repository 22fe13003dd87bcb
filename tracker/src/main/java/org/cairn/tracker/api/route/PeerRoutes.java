package org.cairn.tracker.api.route;

import static org.cairn.tracker.api.call.Requests.fragmentKey;
import static org.cairn.tracker.api.call.Requests.parseLong;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.cairn.core.api.Acknowledged;
import org.cairn.core.api.Endpoints;
import org.cairn.core.api.member.HeartbeatRequest;
import org.cairn.core.api.member.HeartbeatResponse;
import org.cairn.core.api.member.Inventory;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.member.RegisterRequest;
import org.cairn.core.api.repair.BadPieces;
import org.cairn.core.api.repair.RepairClaim;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.api.repair.RepairOutcome;
import org.cairn.core.availability.HostState;
import org.cairn.core.config.HostPort;
import org.cairn.core.security.RegistrationProof;
import org.cairn.tracker.api.call.ApiException;
import org.cairn.tracker.api.call.Bindings;
import org.cairn.tracker.api.call.Call;
import org.cairn.tracker.api.call.Metrics;
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
 * and the peer list and views the status page reads. Who may call each is the endpoint table's rule.
 */
public final class PeerRoutes {
  private static final Logger LOG = LoggerFactory.getLogger(PeerRoutes.class);

  private final Credentials credentials;
  private final Membership membership;
  private final Catalog catalog;
  private final RepairService repair;
  private final Metrics metrics;
  private final Clock clock;
  private final Duration heartbeatInterval;
  private final Grants grants;
  /** Per peer, the signing time of the last proof of its key taken (a proof is taken once). */
  private final Map<String, Long> proofsTaken = new java.util.HashMap<>();
  private volatile PeerCertifier certifier;
  /** Peers' soft-write reports, taken by the catalog off the heartbeat's thread (the network's). */
  private final SoftReports softReports;

  public PeerRoutes(Credentials credentials, Membership membership, Catalog catalog, RepairService repair, Metrics metrics, Clock clock,
      Duration heartbeatInterval, Grants grants) {
    this.credentials = credentials;
    this.membership = membership;
    this.catalog = catalog;
    this.repair = repair;
    this.metrics = metrics;
    this.clock = clock;
    this.heartbeatInterval = heartbeatInterval;
    this.grants = grants;
    this.softReports = new SoftReports((peer, boot, durable) -> catalog.soft().onHeartbeat(peer, boot, durable));
  }

  public void setCertifier(PeerCertifier certifier) {
    this.certifier = certifier;
  }

  public PeerCertifier certifier() {
    return certifier;
  }

  public void bind(Bindings b) {
    b.on(Endpoints.PEERS, c -> membership.peers());
    b.on(Endpoints.REGISTER, this::register);
    b.on(Endpoints.PEER, c -> known(c.param("id")));
    b.on(Endpoints.HEARTBEAT, this::heartbeat);
    b.on(Endpoints.LEAVE, c -> {
      if (!membership.leave(c.param("id"))) {
        throw new ApiException(404, "unknown peer '" + c.param("id") + "'");
      }
      return new Acknowledged.PeerLeft(c.param("id"), HostState.DOWN.name());
    });
    b.on(Endpoints.INVENTORY, c -> inventory(known(c.param("id")).id(), c.body()));
    b.on(Endpoints.REPAIR_CLAIM, this::claim);
    b.on(Endpoints.REPAIRED, c -> {
      String id = known(c.param("id")).id();
      List<RepairOutcome> outcomes = c.body().outcomes() == null ? List.of() : c.body().outcomes();
      if (outcomes.stream().anyMatch(java.util.Objects::isNull)) {
        throw new ApiException(400, "an outcome of the report is null");
      }
      repair.report(id, outcomes);
      return new RepairClaim.Accepted(outcomes.size());
    });
    b.on(Endpoints.ASSIGNED, c -> {
      // the fragments the index says this peer holds, page by page (the peer audits them)
      String id = known(c.param("id")).id();
      Map<String, String> q = c.query();
      int limit = (int) Math.max(1, Math.min(100_000, q.containsKey("limit") ? parseLong(q.get("limit"), "limit") : 10_000));
      return catalog.holders().assigned(id, q.get("after"), limit);
    });
    b.on(Endpoints.BAD, this::bad);
  }

  private HeartbeatResponse heartbeat(Call<HeartbeatRequest> c) throws ApiException, IOException {
    String id = c.param("id");
    HeartbeatRequest h = c.body();
    if (!membership.heartbeat(id, h)) {
      throw new ApiException(404, "unknown peer '" + id + "'; register first (POST /api/v1/peers)");
    }
    metrics.heartbeat();
    if (h.softBoot() != null && h.softDurable() != null) {
      softReports.report(id, h.softBoot(), h.softDurable());
    }
    return new HeartbeatResponse(id, heartbeatInterval.toMillis(), clock.millis(), repair.queued());
  }

  /** A peer claims repair jobs. */
  private RepairClaim.Jobs claim(Call<RepairClaim> c) throws ApiException, IOException {
    String id = known(c.param("id")).id();
    Integer asked = c.body() == null ? null : c.body().max();
    Long bytes = c.body() == null ? null : c.body().maxBytes();
    if (bytes != null && bytes < 1) {
      throw new ApiException(400, "maxBytes must be >= 1, was " + bytes);
    }
    // a batch claim (by bytes) may name more jobs than one by count
    int max = Math.max(0, Math.min(bytes == null ? 64 : RepairClaim.MAX_BATCH_JOBS, asked == null ? 4 : asked));
    List<RepairJob> jobs = new ArrayList<>();
    for (RepairJob j : repair.claim(id, max, bytes)) {
      jobs.add(grants.withTickets(j, c.who()));
    }
    return new RepairClaim.Jobs(jobs, repair.queued());
  }

  private PeerView known(String id) throws ApiException {
    PeerView v = membership.peer(id);
    if (v == null) {
      throw new ApiException(404, "unknown peer '" + id + "'");
    }
    return v;
  }

  /** Inventory GC: the peer lists what it holds, the tracker answers what is garbage. */
  private Inventory.Garbage inventory(String id, Inventory inv) throws ApiException, IOException {
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
    return new Inventory.Garbage(garbage);
  }

  /**
   * Bad fragments held by this peer, reported by the peer itself (scrub, read) or by a client (fetch)
   * whose scope the router checked. The holder's own report, or the admin's, is authoritative; others
   * are suspicions the repair service acts on when a second, independent reporter confirms them.
   */
  private BadPieces.Answer bad(Call<BadPieces> c) throws ApiException, IOException {
    String id = known(c.param("id")).id();
    List<BadPieces.Piece> pieces = c.body().fragments() == null ? List.of() : c.body().fragments();
    if (pieces.size() > 100_000) {
      throw new ApiException(400, "report at most 100,000 fragments per call, got " + pieces.size());
    }
    Map<byte[], String> fragments = new LinkedHashMap<>();
    for (BadPieces.Piece f : pieces) {
      if (f == null) {
        throw new ApiException(400, "a fragment of the report is null");
      }
      fragments.put(fragmentKey(f.key()), f.reason() == null ? "bad" : f.reason());
    }
    Principal who = c.who();
    boolean authoritative = who.role() == Role.ADMIN || who.role() == Role.PEER && id.equals(who.peer());
    return new BadPieces.Answer(repair.reportBad(id, fragments, c.callerId(), authoritative, who::covers));
  }

  /**
   * Admits a registration made with an enrollment token (before anything is spent or recorded): a new peer takes
   * one of the token's uses; a peer already registered must prove it holds the key it registered with, and takes
   * none (its first registration did). True for the latter.
   */
  private boolean admitEnrollment(RegisterRequest r, Principal who) throws ApiException, IOException {
    boolean known = r.id() != null && membership.peer(r.id()) != null;
    if (known) {
      requireProofOfKey(r);
    }
    membership.requireFreeAddress(r.id(), r.address()); // before the token's use is spent
    if (!known && !credentials.tokens().takeUse(who.tokenId())) {
      throw new ApiException(403, "enrollment token " + who.tokenId() + " has no registrations left");
    }
    return known;
  }

  /** Refuses (403) a registration of a known peer that does not prove its key, or replays a proof already taken. */
  private void requireProofOfKey(RegisterRequest r) throws ApiException {
    try {
      RegistrationProof.verify(membership.publicKey(r.id()), r.publicKey(), r.proof(), r.id(), r.address(), r.proofAt(),
          clock.millis());
    } catch (RegistrationProof.Refused e) {
      throw new ApiException(403, "peer " + r.id() + " is already registered; it registers again with its own credential"
          + " (the peer.credential file in its data directory), or with a proof of its key, or ask the operator: "
          + e.getMessage());
    }
    synchronized (proofsTaken) {
      Long last = proofsTaken.get(r.id());
      if (last != null && r.proofAt() <= last) {
        throw new ApiException(403, "peer " + r.id() + "'s proof signed at " + r.proofAt() + " was taken already");
      }
      proofsTaken.put(r.id(), r.proofAt());
    }
  }

  /** The credential of a peer that joined with enrollment token {@code who}; a new one revokes those issued before. */
  private String issueCredential(String id, Principal who, boolean again) throws IOException {
    int revoked = again ? credentials.tokens().revokePeerCredentials(id) : 0;
    String credential = credentials.tokens().issue(Role.PEER, null, false, null, null, id,
        "issued to peer " + id + (again ? " again, on proof of its key," : "") + " at registration with " + who.tokenId(),
        clock.millis());
    if (again) {
      LOG.warn("peer {} registered again with enrollment token {}, proving its key: revoked {} earlier credential(s), issued a new one",
          id, who.tokenId(), revoked);
    } else {
      LOG.info("peer {} joined with enrollment token {}; issued its own credential", id, who.tokenId());
    }
    return credential;
  }

  /**
   * A registration. A peer credential registers only as its own peer; a donor enrollment token
   * registers a new peer (taking one of its uses) and the answer carries that peer's own credential
   * (the router let only these, the admin, and a peer's own credential for its own id, call it).
   * Every registration's answer carries the data-plane key.
   */
  private HeartbeatResponse register(Call<RegisterRequest> c) throws ApiException, IOException {
    RegisterRequest r = c.body();
    Principal who = c.who();
    boolean enrolling = who.role() == Role.DONOR;
    boolean again = enrolling && admitEnrollment(r, who);
    PeerView v = membership.register(r);
    metrics.heartbeat();
    String credential = enrolling ? issueCredential(v.id(), who, again) : null;
    PeerCertifier.Issued cert = null;
    PeerCertifier ca = certifier;
    if (r.publicKey() != null && ca != null) {
      try {
        cert = ca.certify(v.id(), HostPort.parse(v.address()).host(), r.publicKey());
      } catch (IllegalArgumentException | IOException e) {
        throw new ApiException(400, e.getMessage());
      }
    }
    return new HeartbeatResponse(v.id(), heartbeatInterval.toMillis(), clock.millis(), repair.queued(),
        credentials.dataKey().bearerValue(), credential, cert == null ? null : cert.certificate(),
        cert == null ? null : cert.caCertificate(), credentials.tickets().peerKey(v.id()));
  }
}
