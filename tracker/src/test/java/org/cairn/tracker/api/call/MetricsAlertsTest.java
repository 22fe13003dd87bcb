package org.cairn.tracker.api.call;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.cairn.core.api.status.DurabilityView;
import org.junit.jupiter.api.Test;

/**
 * The tracker exports durability, repair and commit metrics, and the shipped Prometheus
 * alerting rules (docs/monitoring/cairn-alerts.yml) have the shape Prometheus loads (groups of rules
 * with alert, expr, labels.severity, annotations.summary) and name only metrics the tracker exports.
 */
class MetricsAlertsTest {
  private static final Pattern METRIC = Pattern.compile("\\bcairn_[a-z_]+");

  @Test
  void durabilityRepairAndCommitMetrics_areExported() {
    Metrics m = new Metrics(() -> Map.of("RUNNING", 5L, "DOWN", 1L), () -> Map.of("hosts", 2L));
    m.setDurability(() -> new DurabilityView(1L, 10, 7, 2, 1, 3, 1, 4096, 2, 5, 600_000, 1 << 20, List.of(), List.of()));
    m.committed();
    m.committed();
    m.manifestRead();
    String text = m.render();
    assertThat(text).contains("cairn_chunks{health=\"healthy\"} 7\n", "cairn_chunks{health=\"degraded\"} 2\n",
        "cairn_chunks{health=\"lost\"} 1\n", "cairn_repair_queue 3\n", "cairn_repair_in_progress 1\n",
        "cairn_repaired_bytes_total 4096\n", "cairn_repair_failures_total 5\n", "cairn_stored_bytes 1048576\n",
        "cairn_commits_total 2\n", "cairn_manifest_reads_total 1\n");
    for (String line : text.split("\n")) {
      assertThat(line).as("Prometheus text format").matches("# (HELP|TYPE) cairn_[a-z_]+ .+|cairn_[a-z_]+(\\{[^}]*\\})? [-0-9.eE+]+");
    }
  }

  @Test
  void alertRules_haveTheirShape_andNameOnlyExportedMetrics() throws Exception {
    Set<String> exported = exported();
    JsonNode rules = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(Path.of("..", "docs", "monitoring", "cairn-alerts.yml")));
    assertThat(rules.get("groups").isArray()).isTrue();
    int count = 0;
    for (JsonNode group : rules.get("groups")) {
      assertThat(group.get("name").asText()).isNotBlank();
      for (JsonNode rule : group.get("rules")) {
        count++;
        String name = rule.path("alert").asText();
        assertThat(name).as("alert name").matches("[A-Z][A-Za-z]+");
        assertThat(rule.path("expr").asText()).as(name + " expr").isNotBlank();
        assertThat(rule.path("labels").path("severity").asText()).as(name + " severity").isIn("warning", "critical");
        assertThat(rule.path("annotations").path("summary").asText()).as(name + " summary").isNotBlank();
        if (rule.has("for")) {
          assertThat(rule.get("for").asText()).as(name + " for").matches("\\d+[smh]");
        }
        Matcher used = METRIC.matcher(rule.get("expr").asText());
        while (used.find()) {
          assertThat(exported).as(name + " uses " + used.group() + ", which the tracker does not export").contains(used.group());
        }
      }
    }
    assertThat(count).isGreaterThanOrEqualTo(5);
  }

  /** The Grafana dashboard (docs/monitoring/cairn-dashboard.json): panels Grafana imports, each querying only exported metrics. */
  @Test
  void grafanaDashboard_hasItsShape_andQueriesOnlyExportedMetrics() throws Exception {
    Set<String> exported = exported();
    JsonNode d = new ObjectMapper().readTree(Files.readString(Path.of("..", "docs", "monitoring", "cairn-dashboard.json")));
    assertThat(d.path("title").asText()).isNotBlank();
    assertThat(d.path("uid").asText()).matches("[a-z0-9-]+");
    assertThat(d.path("schemaVersion").asInt()).isGreaterThanOrEqualTo(30);
    Set<Integer> ids = new TreeSet<>();
    int queries = 0;
    for (JsonNode p : d.get("panels")) {
      assertThat(ids.add(p.path("id").asInt())).as("panel ids are unique").isTrue();
      assertThat(p.path("type").asText()).isIn("timeseries", "stat");
      assertThat(p.path("gridPos").path("w").asInt()).isBetween(1, 24);
      for (JsonNode t : p.get("targets")) {
        queries++;
        Matcher used = METRIC.matcher(t.path("expr").asText());
        assertThat(used.find()).as(p.path("title").asText() + " queries a Cairn metric").isTrue();
        do {
          String name = used.group().replaceAll("_(bucket|sum|count)$", "");
          assertThat(exported.stream().anyMatch(x -> x.equals(used.group()) || x.equals(name)))
              .as(p.path("title").asText() + " uses " + used.group() + ", which the tracker does not export").isTrue();
        } while (used.find());
      }
    }
    assertThat(queries).isGreaterThanOrEqualTo(10);
  }

  /** The metric names a tracker with every kind of metric exports. */
  private static Set<String> exported() {
    Metrics m = new Metrics(() -> Map.of("RUNNING", 1L), () -> Map.of("hosts", 1L));
    m.setDurability(() -> new DurabilityView(1L, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, List.of(), List.of()));
    m.request("GET /health", 200, 1000);
    Set<String> exported = new TreeSet<>();
    Matcher e = METRIC.matcher(m.render());
    while (e.find()) {
      exported.add(e.group());
    }
    return exported;
  }
}
