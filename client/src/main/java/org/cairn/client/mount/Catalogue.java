package org.cairn.client.mount;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.cairn.core.api.catalog.VersionRow;

/**
 * The app's nodes and versions as the mount shows them, asked of the tracker at most once per
 * {@code ttlNanos} per listing (the kernel asks for attributes far more often than versions change)
 * and forgotten at once after this mount stores or deletes. Nodes made with {@code mkdir} are listed
 * before their first version.
 */
final class Catalogue {
  private final MountGrid grid;
  private final long ttlNanos;
  private final Set<String> made = ConcurrentHashMap.newKeySet();
  private volatile Timed<Set<String>> nodes;
  private final Map<String, Timed<NavigableMap<Long, VersionRow>>> versions = new ConcurrentHashMap<>();

  private record Timed<T>(T value, long at) {}

  Catalogue(MountGrid grid, long ttlNanos) {
    this.grid = grid;
    this.ttlNanos = ttlNanos;
  }

  /** Every node: with versions, or made here. */
  Set<String> nodes() throws IOException {
    Timed<Set<String>> n = nodes;
    if (n == null || System.nanoTime() - n.at() > ttlNanos) {
      n = new Timed<>(Collections.unmodifiableSet(new TreeSet<>(grid.nodes())), System.nanoTime());
      nodes = n;
    }
    Set<String> all = new TreeSet<>(n.value());
    all.addAll(made);
    return all;
  }

  boolean hasNode(String node) throws IOException {
    return made.contains(node) || nodes().contains(node);
  }

  /** Lists {@code node} before it has a version ({@code mkdir MOUNT/NODE}). */
  void make(String node) {
    made.add(node);
  }

  /** Forgets a node made here (rmdir); false when it has versions. */
  boolean unmake(String node) throws IOException {
    if (!versions(node).isEmpty()) {
      return false;
    }
    made.remove(node);
    return true;
  }

  /** The node's versions by step. */
  NavigableMap<Long, VersionRow> versions(String node) throws IOException {
    Timed<NavigableMap<Long, VersionRow>> v = versions.get(node);
    if (v == null || System.nanoTime() - v.at() > ttlNanos) {
      TreeMap<Long, VersionRow> byStep = new TreeMap<>();
      if (made.contains(node) || nodesWithVersions().contains(node)) {
        List<VersionRow> rows = grid.versions(node);
        for (VersionRow r : rows) {
          if (!"deleted".equals(r.status())) {
            byStep.put(r.step(), r);
          }
        }
      }
      v = new Timed<>(Collections.unmodifiableNavigableMap(byStep), System.nanoTime());
      versions.put(node, v);
    }
    return v.value();
  }

  private Set<String> nodesWithVersions() throws IOException {
    Timed<Set<String>> n = nodes;
    return n != null && System.nanoTime() - n.at() <= ttlNanos ? n.value() : nodes();
  }

  /** After this mount stored or deleted a version of {@code node}. */
  void changed(String node) {
    versions.remove(node);
    nodes = null;
    made.add(node);
  }
}
