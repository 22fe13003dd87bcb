package org.cairn.tracker.repair;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cairn.core.api.repair.RepairJob;

/*
 * The repair jobs handed out and not yet reported (by job id, which is the chunk's app/id key), and per
 * job the peers to avoid for it until a given time: an executor or target that failed it, or an
 * executor that never reported; and the peers listed DOWN that an executor could not reach, which are
 * not counted as sources until a given time (so chunks that only they could complete are not tried
 * again and again while they are really gone). Not thread-safe: RepairService's lock guards it.
 *
 * Also the rebuilt pieces an executor says it placed on other peers, which the index names only once the
 * target itself lists them (its inventory): while any piece of a job awaits that, the chunk counts as being
 * repaired (it is not planned again) until the piece's deadline, after which it is planned again.
 */
final class RepairJobs {
  /** A job in flight: who runs it, when it was handed out and is given up on, and the holder each rebuilt piece replaces. */
  record InFlight(RepairJob job, String executor, long started, long deadline, Map<Integer, String> expected) {}

  /** A rebuilt piece its executor reported placed on another peer, not yet listed by that peer; {@code key} is the job's. */
  record Unconfirmed(String key, RepairJob job, int index, String expected, String peer, String executor, long deadline) {}

  private final Map<String, InFlight> inFlight = new HashMap<>();
  /**
   * Target peer -> the pieces it has not confirmed yet. Concurrent only so {@link #awaits} may be asked without the lock
   * (the lists are changed under it).
   */
  private final Map<String, List<Unconfirmed>> unconfirmed = new java.util.concurrent.ConcurrentHashMap<>();
  /** Job key -> how many of its pieces await confirmation. */
  private final Map<String, Integer> unconfirmedJobs = new HashMap<>();
  private final Map<String, Map<String, Long>> avoid = new HashMap<>();
  private final Map<String, Long> unreachable = new HashMap<>();

  int size() {
    return inFlight.size();
  }

  /**
   * A copy of what a walk of the index reads (the jobs in flight, pieces awaiting confirmation, avoidances and
   * unreachable sources as of now), so the walk runs without the service's lock ({@link RepairService}); the lists of
   * unconfirmed pieces per target are not copied.
   */
  RepairJobs copyForWalk() {
    RepairJobs c = new RepairJobs();
    c.inFlight.putAll(inFlight);
    c.unconfirmedJobs.putAll(unconfirmedJobs);
    avoid.forEach((k, m) -> c.avoid.put(k, new HashMap<>(m)));
    c.unreachable.putAll(unreachable);
    return c;
  }

  /** Whether the chunk's job is in flight, or a piece it placed awaits its target's confirmation. */
  boolean running(String key) {
    return inFlight.containsKey(key) || unconfirmedJobs.containsKey(key);
  }

  /** Keeps a piece placed on another peer until that peer lists it or {@code u.deadline()} passes. */
  void unconfirmed(Unconfirmed u) {
    unconfirmed.computeIfAbsent(u.peer(), p -> new ArrayList<>()).add(u);
    unconfirmedJobs.merge(u.key(), 1, Integer::sum);
  }

  /** Whether {@code peer} has pieces to confirm: safe without the lock (a stale answer delays a confirmation to its next inventory). */
  boolean awaits(String peer) {
    return unconfirmed.containsKey(peer);
  }

  /** The pieces {@code peer} has not confirmed yet (a copy). */
  List<Unconfirmed> unconfirmedOn(String peer) {
    return List.copyOf(unconfirmed.getOrDefault(peer, List.of()));
  }

  /** Forgets a piece its target confirmed. */
  void confirmed(Unconfirmed u) {
    List<Unconfirmed> l = unconfirmed.get(u.peer());
    if (l != null && l.remove(u)) {
      forgetOne(u.key());
      if (l.isEmpty()) {
        unconfirmed.remove(u.peer());
      }
    }
  }

  private void forgetOne(String key) {
    unconfirmedJobs.computeIfPresent(key, (k, n) -> n <= 1 ? null : n - 1);
  }

  /** Pieces awaiting confirmation, over all peers. */
  int unconfirmedCount() {
    int n = 0;
    for (int c : unconfirmedJobs.values()) {
      n += c;
    }
    return n;
  }

  /** Forgets and returns the pieces whose deadline passed without their target listing them. */
  List<Unconfirmed> expireUnconfirmed(long now) {
    List<Unconfirmed> out = new ArrayList<>();
    for (Iterator<List<Unconfirmed>> it = unconfirmed.values().iterator(); it.hasNext(); ) {
      List<Unconfirmed> l = it.next();
      for (Iterator<Unconfirmed> u = l.iterator(); u.hasNext(); ) {
        Unconfirmed x = u.next();
        if (x.deadline() <= now) {
          u.remove();
          forgetOne(x.key());
          out.add(x);
        }
      }
      if (l.isEmpty()) {
        it.remove();
      }
    }
    return out;
  }

  InFlight get(String key) {
    return inFlight.get(key);
  }

  void start(String key, InFlight job) {
    inFlight.put(key, job);
  }

  void finish(String key) {
    inFlight.remove(key);
  }

  void avoid(String key, String peer, long until) {
    avoid.computeIfAbsent(key, x -> new HashMap<>()).put(peer, until);
  }

  boolean avoided(String key, String peer, long now) {
    Long until = avoid.getOrDefault(key, Map.of()).get(peer);
    return until != null && until > now;
  }

  /** The peers to avoid for a job now. */
  Set<String> avoided(String key, long now) {
    Set<String> out = new HashSet<>();
    for (Map.Entry<String, Long> e : avoid.getOrDefault(key, Map.of()).entrySet()) {
      if (e.getValue() > now) {
        out.add(e.getKey());
      }
    }
    return out;
  }

  /** A peer listed DOWN that an executor could not reach: no source until {@code until}. */
  void unreachable(String peer, long until) {
    unreachable.merge(peer, until, Math::max);
  }

  /** Whether {@code peer} may be named as a source listed DOWN now. */
  boolean askable(String peer, long now) {
    Long until = unreachable.get(peer);
    return until == null || until <= now;
  }

  /** Jobs a peer is executing. */
  int executing(String peer) {
    int n = 0;
    for (InFlight f : inFlight.values()) {
      if (f.executor().equals(peer)) {
        n++;
      }
    }
    return n;
  }

  /** Bytes of rebuilt pieces of the jobs a peer is executing. */
  long executingBytes(String peer) {
    long n = 0;
    for (InFlight f : inFlight.values()) {
      if (f.executor().equals(peer)) {
        n += f.job().rebuiltBytes();
      }
    }
    return n;
  }

  /** Bytes of rebuilt pieces each peer is the target of, over the jobs in flight. */
  Map<String, Long> targetLoad() {
    Map<String, Long> load = new HashMap<>();
    for (InFlight f : inFlight.values()) {
      for (RepairJob.Piece t : f.job().targets()) {
        load.merge(t.peer(), f.job().fragmentBytes(), Long::sum);
      }
    }
    return load;
  }

  /**
   * Forgets the jobs past their deadline or whose executor {@code gone} says will never report (it went
   * DOWN or restarted), avoiding their executors for them until {@code avoidUntil}, and the avoidances
   * that ended. Returns the jobs forgotten.
   */
  List<Map.Entry<String, InFlight>> expire(long now, long avoidUntil, java.util.function.Predicate<InFlight> gone) {
    List<Map.Entry<String, InFlight>> expired = new ArrayList<>();
    for (Iterator<Map.Entry<String, InFlight>> it = inFlight.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, InFlight> e = it.next();
      if (e.getValue().deadline() <= now || gone.test(e.getValue())) {
        it.remove();
        expired.add(Map.entry(e.getKey(), e.getValue()));
      }
    }
    for (Map.Entry<String, InFlight> e : expired) {
      avoid(e.getKey(), e.getValue().executor(), avoidUntil);
    }
    avoid.values().removeIf(m -> {
      m.values().removeIf(until -> until <= now);
      return m.isEmpty();
    });
    unreachable.values().removeIf(until -> until <= now);
    return expired;
  }
}
