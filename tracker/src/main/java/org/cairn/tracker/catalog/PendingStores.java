package org.cairn.tracker.catalog;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.cairn.core.hash.ChunkId;
import org.cairn.tracker.auth.Refused;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Stores in flight (sessions) and the chunks each has sent or is about to send. Until a store
 * commits, no index entry names its pieces, so the peers' inventory GC would see them as garbage;
 * a store longer than the peers' --gc-grace would lose its first pieces before its commit. The
 * client names each chunk here before sending its pieces, and GC spares every piece of a pending
 * chunk. A session ends with its commit (or DELETE), or expires EXPIRY after the client was last
 * heard from (a crashed client): its pieces then become garbage as usual.
 *
 * In memory only: a tracker restart forgets pending chunks. So for HOLD after a start every chunk
 * counts as pending (GC finds no garbage): a client whose store was in flight names all its chunks
 * again on its first call that reaches the restarted tracker (it retries every second while the
 * tracker is away, and after 2 s without a call anyway). Without the hold the peers' grace period alone
 * would protect those pieces, and a short grace lost them (seen in CI with a 2 s grace).
 *
 * A session belongs to whoever opened it: its first call binds it to an app and the caller's token id,
 * and a later call (or close) by another token or for another app is refused, so one client can neither
 * ride another's session (and its WRITE tickets) nor end it. A token may hold MAX_SESSIONS_PER_OWNER
 * open sessions at once, naming at most MAX_CHUNKS chunks over all of them, which bounds what one caller
 * makes the tracker keep.
 */
public final class PendingStores {
  private static final Logger LOG = LoggerFactory.getLogger(PendingStores.class);
  /** A session the client has not touched for this long is dropped. Clients call after 2 s of silence. */
  public static final Duration EXPIRY = Duration.ofMinutes(2);
  /** Default hold after a start: far more than the clients' 2 s between calls. */
  public static final Duration DEFAULT_HOLD = Duration.ofSeconds(60);
  /** Chunks one session, or all of one token's sessions together, may name (a 16 TiB image of 1 MiB chunks). */
  static final int MAX_CHUNKS = 16 << 20;
  /**
   * Open sessions one token may hold at once: far more than the stores one client (an agent storing for
   * many jobs) runs together, few enough that a caller cannot make the tracker keep sessions without end.
   */
  public static final int MAX_SESSIONS_PER_OWNER = 256;

  /** The app of a session opened through the deprecated calls, which name none. */
  private static final String LEGACY_APP = "";

  private final Clock clock;
  private final Map<String, Session> sessions = new HashMap<>();
  /** Until this time (epoch ms) every chunk counts as pending: sessions from before the start may be unknown. */
  private final long holdUntil;

  private static final class Session {
    final String app;
    final String owner;
    long lastSeen;
    final Set<ChunkId> chunks = new HashSet<>();

    Session(String app, String owner) {
      this.app = app;
      this.owner = owner;
    }
  }

  public PendingStores(Clock clock) {
    this(clock, Duration.ZERO);
  }

  /** Forgetting sessions from before now: every chunk counts as pending for {@code hold}. */
  public PendingStores(Clock clock, Duration hold) {
    this.clock = clock;
    this.holdUntil = clock.millis() + hold.toMillis();
    if (!hold.isZero()) {
      LOG.info("garbage collection finds nothing for {} after this start: stores in flight may name their chunks again", hold);
    }
  }

  /**
   * Opens or refreshes a session and adds chunks to it; returns how many it names. A new session is bound to
   * {@code app} and {@code owner} (the caller's token id); a call for a session another token or another app
   * opened is refused ({@link Refused#forbidden}), as is a new session past the owner's
   * {@link #MAX_SESSIONS_PER_OWNER}.
   */
  public synchronized int add(String session, String app, String owner, Collection<ChunkId> ids) {
    checkSession(session);
    CatalogKeys.checkName("app", app);
    if (owner == null || owner.isEmpty()) {
      throw new IllegalArgumentException("a store session needs its caller's token id");
    }
    return open(session, app, owner, ids);
  }

  private int open(String session, String app, String owner, Collection<ChunkId> ids) {
    expire();
    Session s = sessions.get(session);
    if (s == null) {
      if (opened(owner) >= MAX_SESSIONS_PER_OWNER) {
        throw Refused.forbidden("token " + owner + " already has " + MAX_SESSIONS_PER_OWNER
            + " store sessions open; finish or close one first");
      }
      s = new Session(app, owner);
      sessions.put(session, s);
      LOG.debug("store session {} opened for {} by {}", session, app, owner);
    }
    requireOwner(session, s, app, owner);
    if (s.chunks.size() + ids.size() > MAX_CHUNKS) {
      throw new IllegalArgumentException("store session " + session + " would name more than " + MAX_CHUNKS + " chunks");
    }
    if (named(owner) + ids.size() > MAX_CHUNKS) {
      throw Refused.forbidden("token " + owner + "'s open store sessions would name more than " + MAX_CHUNKS + " chunks");
    }
    s.lastSeen = clock.millis();
    s.chunks.addAll(ids);
    return s.chunks.size();
  }

  /** As {@link #add(String, String, String, Collection)} for a caller the API does not name yet: each session is its own owner. */
  @Deprecated
  public synchronized int add(String session, Collection<ChunkId> ids) {
    checkSession(session);
    return open(session, LEGACY_APP, "session:" + session, ids);
  }

  /**
   * Ends a session (its store committed or gave up); returns whether it was open. Only the token that opened it
   * may close it ({@link Refused#forbidden} otherwise); closing an unknown or expired session answers false.
   */
  public synchronized boolean close(String session, String owner) {
    Session s = sessions.get(session);
    if (s == null) {
      return false;
    }
    if (!s.owner.equals(owner)) {
      throw Refused.forbidden("store session " + session + " belongs to another token");
    }
    sessions.remove(session);
    return true;
  }

  /** As {@link #close(String, String)} for a caller the API does not name yet (a session opened the same way). */
  @Deprecated
  public synchronized boolean close(String session) {
    Session s = sessions.get(session);
    return s != null && close(session, s.owner);
  }

  /**
   * Refuses ({@link Refused#forbidden}) when {@code session} is open and bound to another token or app: a commit
   * naming a session should check this before it counts the session's commit as its own. Unknown sessions pass.
   */
  public synchronized void requireOwner(String session, String app, String owner) {
    Session s = session == null ? null : sessions.get(session);
    if (s != null) {
      requireOwner(session, s, app, owner);
    }
  }

  private static void requireOwner(String session, Session s, String app, String owner) {
    if (!s.owner.equals(owner)) {
      throw Refused.forbidden("store session " + session + " belongs to another token");
    }
    if (!s.app.equals(app) && !s.app.equals(LEGACY_APP)) {
      throw Refused.forbidden("store session " + session + " stores app " + s.app + ", not " + app);
    }
  }

  private static void checkSession(String session) {
    if (session == null || !session.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new IllegalArgumentException("a store session id is 1-64 letters, digits, '.', '_' or '-', was '" + session + "'");
    }
  }

  /** Chunks the owner's open sessions name (counting a chunk named twice twice: an upper bound is what matters). */
  private long named(String owner) {
    long n = 0;
    for (Session s : sessions.values()) {
      if (s.owner.equals(owner)) {
        n += s.chunks.size();
      }
    }
    return n;
  }

  private int opened(String owner) {
    int n = 0;
    for (Session s : sessions.values()) {
      if (s.owner.equals(owner)) {
        n++;
      }
    }
    return n;
  }

  /** Whether an open session of an app {@code appCovered} accepts names the chunk. */
  public synchronized boolean pendingFor(ChunkId id, Predicate<String> appCovered) {
    expire();
    for (Session s : sessions.values()) {
      if (s.chunks.contains(id) && appCovered.test(s.app)) {
        return true;
      }
    }
    return false;
  }

  /** Whether an open session names the chunk. */
  public synchronized boolean pending(ChunkId id) {
    if (clock.millis() < holdUntil) {
      return true;
    }
    expire();
    for (Session s : sessions.values()) {
      if (s.chunks.contains(id)) {
        return true;
      }
    }
    return false;
  }

  /** Open sessions. */
  public synchronized int open() {
    expire();
    return sessions.size();
  }

  private void expire() {
    long now = clock.millis();
    for (Iterator<Map.Entry<String, Session>> it = sessions.entrySet().iterator(); it.hasNext();) {
      Map.Entry<String, Session> e = it.next();
      if (now - e.getValue().lastSeen > EXPIRY.toMillis()) {
        LOG.info("store session {} expired (no word from its client for {}); its {} chunks are no longer spared by GC", e.getKey(),
            EXPIRY, e.getValue().chunks.size());
        it.remove();
      }
    }
  }
}
