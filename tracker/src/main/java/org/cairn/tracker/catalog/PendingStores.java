package org.cairn.tracker.catalog;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import org.cairn.core.hash.ChunkId;
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
 */
public final class PendingStores {
  private static final Logger LOG = LoggerFactory.getLogger(PendingStores.class);
  /** A session the client has not touched for this long is dropped. Clients call after 2 s of silence. */
  public static final Duration EXPIRY = Duration.ofMinutes(2);
  /** Default hold after a start: far more than the clients' 2 s between calls. */
  public static final Duration DEFAULT_HOLD = Duration.ofSeconds(60);
  /** Chunks one session may name (a 16 TiB image of 1 MiB chunks). */
  static final int MAX_CHUNKS = 16 << 20;

  private final Clock clock;
  private final Map<String, Session> sessions = new HashMap<>();
  /** Until this time (epoch ms) every chunk counts as pending: sessions from before the start may be unknown. */
  private final long holdUntil;

  private static final class Session {
    long lastSeen;
    final Set<ChunkId> chunks = new HashSet<>();
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

  /** Opens or refreshes a session and adds chunks to it; returns how many it names. */
  public synchronized int add(String session, Collection<ChunkId> ids) {
    if (session == null || !session.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new IllegalArgumentException("a store session id is 1-64 letters, digits, '.', '_' or '-', was '" + session + "'");
    }
    expire();
    Session s = sessions.computeIfAbsent(session, k -> {
      LOG.debug("store session {} opened", k);
      return new Session();
    });
    if (s.chunks.size() + ids.size() > MAX_CHUNKS) {
      throw new IllegalArgumentException("store session " + session + " would name more than " + MAX_CHUNKS + " chunks");
    }
    s.lastSeen = clock.millis();
    s.chunks.addAll(ids);
    return s.chunks.size();
  }

  /** Ends a session (its store committed or gave up); returns whether it was open. */
  /** STUB until h/svc lands (it binds the session to app and owner): delegates, checking nothing. */
  public int add(String session, String app, String owner, Collection<ChunkId> ids) {
    return add(session, ids);
  }

  /** STUB until h/svc lands: delegates, checking nothing. */
  public boolean close(String session, String owner) {
    return close(session);
  }

  public synchronized boolean close(String session) {
    return sessions.remove(session) != null;
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
