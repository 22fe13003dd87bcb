package org.cairn.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/** How {@code cairn benchmark} prints its results: a table row per result, or one JSON object per line. */
public final class StageOutput {
  private static final ObjectMapper JSON = new ObjectMapper();

  private StageOutput() {}

  /** Prints each result to {@code out} (flushed at once, so a long benchmark shows its lines as they come). */
  public static Consumer<StageResult> to(PrintWriter out, boolean json) {
    return json ? r -> printJson(out, r) : r -> printRow(out, r);
  }

  private static void printJson(PrintWriter out, StageResult r) {
    try {
      out.println(JSON.writeValueAsString(r.fields()));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    out.flush();
  }

  private static void printRow(PrintWriter out, StageResult r) {
    StringBuilder line = new StringBuilder();
    line.append(Double.isNaN(r.mbPerSec()) ? String.format(Locale.ROOT, "%-12s", r.get("stage"))
        : String.format(Locale.ROOT, "%-12s %9.1f MB/s", r.get("stage"), r.mbPerSec()));
    for (Map.Entry<String, Object> e : r.fields().entrySet()) {
      if (!e.getKey().equals("stage") && !e.getKey().equals("mbPerSec")) {
        line.append("  ").append(e.getKey()).append('=').append(e.getValue());
      }
    }
    out.println(line);
    out.flush();
  }
}
