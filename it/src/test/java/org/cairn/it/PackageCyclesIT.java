package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * No package of Cairn's depends, through others, on itself (the house style: layering by package,
 * no cycles). The JDK's {@code jdeps} reads each module's compiled classes for their package-level
 * dependencies; the strongly connected components of that graph must all be single packages.
 */
class PackageCyclesIT {
  private static final List<String> MODULES = List.of("core", "peer", "tracker", "client", "client-cli", "bench", "gui", "sim", "it");

  @Test
  void noPackageDependsOnItselfThroughOthers() {
    Map<String, Set<String>> graph = new TreeMap<>();
    for (String module : MODULES) {
      Path classes = Path.of(System.getProperty("cairn.root", "..")).resolve(module).resolve("target").resolve("classes");
      assertThat(classes).as("%s is built", classes).isDirectory();
      for (String line : jdeps(classes).split("\n")) {
        // "   org.cairn.a   ->   org.cairn.b   classes"
        String[] f = line.trim().split("\\s+");
        if (f.length >= 3 && f[1].equals("->") && f[0].startsWith("org.cairn") && f[2].startsWith("org.cairn") && !f[0].equals(f[2])) {
          graph.computeIfAbsent(f[0], k -> new TreeSet<>()).add(f[2]);
        }
      }
    }
    assertThat(graph).as("jdeps found the packages' dependencies").containsKey("org.cairn.cli").containsKey("org.cairn.tracker.api");
    assertThat(cycles(graph)).as("packages that depend on each other (each list one cycle)").isEmpty();
  }

  @Test
  void findsACycle_whenThereIsOne() {
    Map<String, Set<String>> graph = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a"));
    assertThat(cycles(graph)).containsExactly(List.of("a", "b", "c"));
  }

  private static String jdeps(Path classes) {
    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new IllegalStateException("no jdeps in this JDK"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:package", "-filter:none", "-e", "org\\.cairn\\..*",
        classes.toString());
    assertThat(rc).as("jdeps on %s: %s", classes, err).isZero();
    return out.toString();
  }

  /** Tarjan's strongly connected components of more than one package, each sorted. */
  static List<List<String>> cycles(Map<String, Set<String>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    List<List<String>> out = new ArrayList<>();
    for (String v : new TreeSet<>(graph.keySet())) {
      if (!index.containsKey(v)) {
        connect(v, graph, index, low, stack, onStack, out);
      }
    }
    return out;
  }

  private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index, Map<String, Integer> low,
      Deque<String> stack, Set<String> onStack, List<List<String>> out) {
    index.put(v, index.size());
    low.put(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (String w : graph.getOrDefault(v, Set.of())) {
      if (!index.containsKey(w)) {
        connect(w, graph, index, low, stack, onStack, out);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      List<String> component = new ArrayList<>();
      String w;
      do {
        w = stack.pop();
        onStack.remove(w);
        component.add(w);
      } while (!w.equals(v));
      if (component.size() > 1) {
        component.sort(null);
        out.add(component);
      }
    }
  }
}
