package org.cairn.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/** One measured line: the stage, its MB/s and whatever else describes it (ordered, for JSON and tables). */
public final class StageResult {
  private final Map<String, Object> fields = new LinkedHashMap<>();

  public StageResult(String stage, double mbPerSec) {
    fields.put("stage", stage);
    fields.put("mbPerSec", Math.round(mbPerSec * 10) / 10.0);
  }

  /** A line that is not a data rate (e.g. requests per second). */
  public StageResult(String stage) {
    fields.put("stage", stage);
  }

  public StageResult with(String key, Object value) {
    if (value instanceof Double) {
      value = Math.round((Double) value * 1000) / 1000.0;
    }
    fields.put(key, value);
    return this;
  }

  public Map<String, Object> fields() {
    return fields;
  }

  /** MB/s, or NaN for lines that are not a data rate. */
  public double mbPerSec() {
    Object v = fields.get("mbPerSec");
    return v == null ? Double.NaN : (Double) v;
  }

  public Object get(String key) {
    return fields.get(key);
  }
}
