package org.cairn.tracker.repair;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.status.DurabilityView.Stalled;
import org.cairn.core.availability.HostState;
import org.cairn.tracker.catalog.ChunkRecord;
import org.cairn.tracker.placement.PlacementService;

/*
 * Why repair is not progressing, grouped for people: one scan feeds it the planner's own
 * decisions, and it answers a few lines that each say what blocks how many chunks and what unblocks
 * them.
 *
 * - lost: fewer than m live pieces; queued after the others when holders listed DOWN that did not
 *   leave could make up m (their executors ask them), not queued otherwise.
 * - grace: a holder is DOWN but not yet past the grace period, so its pieces are not missing yet.
 * - hosts / targets: a queued chunk for which plan() finds no target: every peer is excluded (holds a
 *   piece, failed this repair recently, is at its in-flight limit) or fails
 *   PlacementService.repairCandidate. "hosts" when the live peers are all holders already (k+m pieces
 *   need k+m distinct hosts), "targets" when other live peers exist but none qualifies.
 * - executors: jobs are queued but no peer may claim one (claim() serves RUNNING, unpaused peers).
 * - untagged: indexed before fragments had tags; plan() cannot name their pieces on the peers.
 */
final class StallReasons {
  /** The bounded label of a reason (the metrics' {@code kind}), in the order reasons are listed. */
  enum Kind {
    LOST, HOSTS, TARGETS, EXECUTORS, GRACE, UNTAGGED;

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** At most this many peers get a grace line of their own; the rest share one. */
  static final int GRACE_LINES = 10;

  private final Map<String, PeerView> peers;
  private final long now;
  /** Peers not DOWN, and of those the RUNNING ones. */
  private final long up;
  private final long running;
  private final Map<Kind, Map<String, Integer>> groups = new EnumMap<>(Kind.class);
  /** DOWN peer in its grace period -> {due at, chunks with a piece on it}. */
  private final Map<String, long[]> grace = new HashMap<>();

  StallReasons(Map<String, PeerView> peers, long now) {
    this.peers = peers;
    this.now = now;
    this.up = peers.values().stream().filter(p -> !HostState.DOWN.name().equals(p.state())).count();
    this.running = peers.values().stream().filter(p -> HostState.RUNNING.name().equals(p.state())).count();
  }

  /** A chunk with fewer than m pieces on live peers. */
  /** {@code askingDown}: holders listed DOWN that did not leave could make up m, so repair asks them. */
  void lost(ChunkRecord r, boolean askingDown) {
    add(Kind.LOST, coding(r) + " chunks are lost: fewer than " + r.needed() + " of their " + r.holders().size()
        + " pieces are on live peers, " + (askingDown
            ? "so they are repaired only if holders listed DOWN still answer their peers (repair asks them; a DOWN holder coming back restores them too)"
            : "so they cannot be repaired (only a DOWN holder coming back can restore them)"));
  }

  /** A chunk with a piece on {@code peer}, which is DOWN and due for repair at {@code dueAt}. */
  void grace(String peer, long dueAt) {
    grace.computeIfAbsent(peer, p -> new long[] {dueAt, 0})[1]++;
  }

  /** A queued chunk whose pieces plan() cannot name on the peers. */
  void untagged() {
    add(Kind.UNTAGGED, "chunks indexed before fragments had tags cannot be repaired (store a new version)");
  }

  /**
   * A queued chunk: records why if plan() would find no target for it now (no peer outside
   * {@code exclusions} passes {@link PlacementService#repairCandidate}). Returns whether it is blocked.
   */
  boolean noTarget(ChunkRecord r, Exclusions exclusions) {
    Map<String, Integer> others = new TreeMap<>(); // why each live non-holder is not a target -> how many
    for (PeerView p : peers.values()) {
      if (exclusions.holders().contains(p.id()) || HostState.DOWN.name().equals(p.state())) {
        continue;
      }
      String why;
      if (exclusions.avoided().contains(p.id())) {
        why = "failed this repair recently";
      } else if (exclusions.atLimit().contains(p.id())) {
        why = "busy with other repairs";
      } else if (PlacementService.repairCandidate(p, r.fragmentBytes())) {
        return false;
      } else if (p.paused()) {
        why = "paused";
      } else if (!HostState.RUNNING.name().equals(p.state())) {
        why = p.state();
      } else {
        why = "out of space";
      }
      others.merge(why, 1, Integer::sum);
    }
    int n = r.holders().size();
    if (others.isEmpty()) {
      add(Kind.HOSTS, up < n
          ? coding(r) + " chunks need " + n + " live hosts, " + up + (up == running ? " are RUNNING" : " are up")
              + " (add or restart a donor)"
          : coding(r) + " chunks need " + n + " distinct hosts and every live peer holds a piece already (add a donor)");
      return true;
    }
    List<String> causes = new ArrayList<>();
    List<String> hints = new ArrayList<>();
    int count = 0;
    for (Map.Entry<String, Integer> e : others.entrySet()) {
      causes.add(e.getKey() + " (" + e.getValue() + ")");
      count += e.getValue();
      hints.add(hint(e.getKey()));
    }
    hints.add("add a donor");
    add(Kind.TARGETS, coding(r) + " chunks have no repair target: the " + count + " live peers without a piece are "
        + String.join(", ", causes) + " (" + String.join(", ", hints.stream().distinct().toList()) + ")");
    return true;
  }

  /** After the scan: {@code queued} jobs wait; says so if no peer may claim one. */
  void executors(int queued) {
    if (queued == 0) {
      return;
    }
    Map<String, Integer> states = new TreeMap<>();
    for (PeerView p : peers.values()) {
      if (HostState.RUNNING.name().equals(p.state()) && !p.paused()) {
        return;
      }
      if (!HostState.DOWN.name().equals(p.state())) {
        states.merge(p.paused() ? "paused" : p.state(), 1, Integer::sum);
      }
    }
    List<String> parts = new ArrayList<>();
    states.forEach((s, n) -> parts.add(n + " " + s));
    groups.computeIfAbsent(Kind.EXECUTORS, k -> new LinkedHashMap<>()).put("no RUNNING peer may execute repairs ("
        + (parts.isEmpty() ? "no peer is up" : "all paused/busy: " + String.join(", ", parts))
        + "; a RUNNING, unpaused donor claims them)", queued);
  }

  /** The reasons, most serious kind first, larger groups first within a kind. */
  List<Stalled> list() {
    groupGrace();
    List<Stalled> out = new ArrayList<>();
    for (Map.Entry<Kind, Map<String, Integer>> g : groups.entrySet()) {
      List<Map.Entry<String, Integer>> lines = new ArrayList<>(g.getValue().entrySet());
      if (g.getKey() != Kind.GRACE) {
        lines.sort(Map.Entry.<String, Integer>comparingByValue().reversed());
      }
      for (Map.Entry<String, Integer> line : lines) {
        out.add(new Stalled(line.getKey(), line.getValue(), g.getKey().label()));
      }
    }
    return List.copyOf(out);
  }

  /** Stalled chunks by kind (every kind present, 0 if none), for a metrics gauge. */
  static Map<String, Long> byKind(List<Stalled> stalled) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (Kind k : Kind.values()) {
      out.put(k.label(), 0L);
    }
    for (Stalled s : stalled) {
      out.merge(s.kind(), (long) s.chunks(), Long::sum);
    }
    return out;
  }

  private void groupGrace() {
    List<Map.Entry<String, long[]>> due = new ArrayList<>(grace.entrySet());
    due.sort(Comparator.comparingLong((Map.Entry<String, long[]> e) -> e.getValue()[0]).thenComparing(Map.Entry::getKey));
    long rest = 0;
    for (int i = 0; i < due.size(); i++) {
      Map.Entry<String, long[]> e = due.get(i);
      if (i < GRACE_LINES) {
        add(Kind.GRACE, "grace period: " + left(e.getValue()[0]) + " left for " + e.getKey()
            + " before its pieces are rebuilt (or sooner if it comes back)", (int) e.getValue()[1]);
      } else {
        rest += e.getValue()[1];
      }
    }
    if (rest > 0) {
      add(Kind.GRACE, "grace period: " + (due.size() - GRACE_LINES) + " more DOWN peers, the next due in "
          + left(due.get(GRACE_LINES).getValue()[0]) + ", before their pieces are rebuilt", (int) rest);
    }
  }

  private void add(Kind kind, String reason) {
    add(kind, reason, 1);
  }

  private void add(Kind kind, String reason, int chunks) {
    groups.computeIfAbsent(kind, k -> new LinkedHashMap<>()).merge(reason, chunks, Integer::sum);
  }

  private static String hint(String cause) {
    return switch (cause) {
      case "failed this repair recently" -> "it is retried elsewhere after a back-off";
      case "busy with other repairs" -> "wait for the repairs in flight";
      case "paused" -> "resume a donor";
      case "out of space" -> "free space on a donor";
      default -> "wait until a donor is RUNNING";
    };
  }

  /** {@code code:4+2} is shown as {@code 4+2}; other schemes keep their name. */
  private static String coding(ChunkRecord r) {
    if (r.redundancy() == null) {
      return r.holders().size() + "-piece";
    }
    return r.redundancy().startsWith("code:") ? r.redundancy().substring("code:".length()) : r.redundancy();
  }

  /** Time left until {@code at}, rounded up: 45s, 7m, 2h 5m. */
  private String left(long at) {
    long s = Math.max(0, (at - now + 999) / 1000);
    if (s < 60) {
      return s + "s";
    }
    long m = (s + 59) / 60;
    return m < 60 ? m + "m" : m / 60 + "h " + m % 60 + "m";
  }
}
