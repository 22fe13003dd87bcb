package org.cairn.tracker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.cairn.tracker.api.call.Metrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Metrics' route labels are endpoint templates, never request text; label values are escaped as Prometheus reads them. */
class MetricsLabelsTest {
  @TempDir
  Path dir;

  private ApiFixture f;

  @BeforeEach
  void open() throws IOException {
    f = new ApiFixture(dir);
  }

  @AfterEach
  void close() {
    f.close();
  }

  private String metrics() {
    return new String(f.handle("GET", "/metrics", Map.of(), null, f.admin).body(), StandardCharsets.UTF_8);
  }

  @Test
  void aPathWithQuotesAndNewlines_neverAppearsInTheMetrics() {
    String evil = "x\"} 1\ncairn_evil_total{a=\"b";
    f.handle("GET", "/api/v1/peers/" + evil, Map.of(), null, f.admin);
    f.handle("POST", "/api/v1/peers/" + evil + "/heartbeat", Map.of(), "{}", f.admin);
    f.handle("GET", "/api/v1/" + evil, Map.of(), null, f.admin);
    f.handle("GET", "/" + evil, Map.of(), null, null);
    f.handle("DELETE", "/api/v1/stores/" + evil, Map.of(), null, "Bearer \"\n");
    String text = metrics();
    assertThat(text).doesNotContain("evil").doesNotContain("x\"");
    assertThat(text).contains("cairn_http_requests_total{route=\"GET /api/v1/peers/{id}\",status=\"404\"} 1")
        .contains("cairn_http_requests_total{route=\"POST /api/v1/peers/{id}/heartbeat\",status=\"404\"} 1")
        .contains("cairn_http_requests_total{route=\"unmatched\",status=\"404\"} 2")
        .contains("cairn_http_requests_total{route=\"DELETE /api/v1/stores/{session}\",status=\"401\"} 1");
    for (String line : text.split("\n")) {
      assertThat(line).as("every line is a comment or a sample").matches("# .*|[a-z_]+(\\{.*\\})? [-0-9.eE+Inf]+");
    }
  }

  @Test
  void labelValues_escapeBackslashQuoteAndNewline() {
    assertThat(Metrics.escape("a\\b\"c\nd")).isEqualTo("a\\\\b\\\"c\\nd");
    assertThat(Metrics.escape("GET /api/v1/peers/{id}")).isEqualTo("GET /api/v1/peers/{id}");
    Metrics m = new Metrics(() -> Map.of("UP", 1L), () -> Map.of("we\"ird\nkind\\", 2L));
    assertThat(m.render()).contains("cairn_repair_stalled_chunks{kind=\"we\\\"ird\\nkind\\\\\"} 2");
  }
}
