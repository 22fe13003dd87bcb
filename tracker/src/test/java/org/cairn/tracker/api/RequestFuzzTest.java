package org.cairn.tracker.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.cairn.core.api.Endpoint;
import org.cairn.core.api.Endpoints;
import org.cairn.tracker.api.call.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every request record of the table, read from seeded random and mutated bodies (truncated, flipped
 * bytes, fields of the wrong type, huge numbers, deep nesting, nulls, random bytes), and every query
 * parameter of the query-only calls replaced with junk: never a 500, never an exception out of
 * {@link TrackerApi#handle}, always a JSON answer.
 */
class RequestFuzzTest {
  private static final String DEEP = "[".repeat(5000) + "]".repeat(5000);
  private static final String[] JUNK = {"null", "\"x\"", "-1", "0", "1e400", "-1e400", "99999999999999999999999999", "[]", "{}", "true",
      "[null]", "{\"a\":null}", "\"" + "z".repeat(10_000) + "\"", DEEP, "\"\\u0000\"", "1.5", "\"../../etc\""};
  private static final String[] QUERY_JUNK = {"", "-1", "0", "99999999999999999999", "NaN", "latest", "\"}\n", "../x", "a*",
      "1e999", "code:999+999", "\u0000", "x".repeat(5000), "-9223372036854775808"};

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

  @Test
  void mutatedBodiesOfEveryRequestRecord_neverCauseAServerError() throws IOException {
    Random random = new Random(4242);
    List<String> failures = new ArrayList<>();
    int n = 0;
    for (Endpoint<?, ?> e : Endpoints.ALL) {
      if (!e.hasBody()) {
        continue;
      }
      for (int i = 0; i < 150; i++) {
        Samples.Sample s = Samples.of(e, new Samples.Ctx(f, ApiFixture.X, ++n));
        byte[] body = mutate(s.body(), random);
        check(e, s.path(), s.query(), body, failures);
      }
    }
    assertThat(failures).isEmpty();
  }

  @Test
  void junkQueryParameters_neverCauseAServerError() throws IOException {
    Random random = new Random(77);
    List<String> failures = new ArrayList<>();
    int n = 0;
    for (Endpoint<?, ?> e : Endpoints.ALL) {
      Samples.Sample s = Samples.of(e, new Samples.Ctx(f, ApiFixture.X, ++n));
      if (s.query().isEmpty() || e == Endpoints.DELETE_VERSION) {
        continue;
      }
      for (int i = 0; i < 60; i++) {
        Map<String, String> q = new LinkedHashMap<>(s.query());
        for (String k : s.query().keySet()) {
          if (random.nextBoolean()) {
            q.put(k, QUERY_JUNK[random.nextInt(QUERY_JUNK.length)]);
          } else if (random.nextInt(4) == 0) {
            q.remove(k);
          }
        }
        check(e, s.path(), q, s.body() == null ? new byte[0] : s.body().getBytes(StandardCharsets.UTF_8), failures);
      }
    }
    assertThat(failures).isEmpty();
  }

  private void check(Endpoint<?, ?> e, String path, Map<String, String> query, byte[] body, List<String> failures) {
    Response r;
    try {
      r = f.api.handle(e.method(), path, query, body, "Bearer " + f.admin);
    } catch (RuntimeException | Error x) {
      failures.add(e + " threw " + x + " on " + shown(body) + " " + query);
      return;
    }
    if (r.status() >= 500 && r.status() != 503) {
      failures.add(e + " answered " + r.status() + " " + new String(r.body(), StandardCharsets.UTF_8) + " to " + shown(body) + " " + query);
      return;
    }
    if (r.contentType().startsWith("application/json")) {
      try {
        ApiFixture.JSON.readTree(r.body());
      } catch (IOException x) {
        failures.add(e + " answered a body that is not JSON");
      }
    }
  }

  private static String shown(byte[] body) {
    String s = new String(body, StandardCharsets.ISO_8859_1);
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }

  /** One seeded mutation of a valid body. */
  private static byte[] mutate(String valid, Random random) throws IOException {
    byte[] b = valid.getBytes(StandardCharsets.UTF_8);
    switch (random.nextInt(6)) {
      case 0: // truncated
        return java.util.Arrays.copyOf(b, random.nextInt(b.length + 1));
      case 1: { // flipped bytes
        byte[] c = b.clone();
        for (int i = 1 + random.nextInt(4); i > 0; i--) {
          c[random.nextInt(c.length)] = (byte) random.nextInt(256);
        }
        return c;
      }
      case 2: // a whole body of the wrong kind
        return JUNK[random.nextInt(JUNK.length)].getBytes(StandardCharsets.UTF_8);
      case 3: { // random bytes
        byte[] c = new byte[random.nextInt(200)];
        random.nextBytes(c);
        return c;
      }
      default: // one field, at any depth, of the wrong type or null
        JsonNode tree = ApiFixture.JSON.readTree(b);
        replaceOneField(tree, random);
        return ApiFixture.JSON.writeValueAsString(tree).replace("\"@@JUNK@@\"", JUNK[random.nextInt(JUNK.length)])
            .getBytes(StandardCharsets.UTF_8);
    }
  }

  private static void replaceOneField(JsonNode node, Random random) {
    List<ObjectNode> objects = new ArrayList<>();
    collect(node, objects);
    if (objects.isEmpty()) {
      return;
    }
    ObjectNode o = objects.get(random.nextInt(objects.size()));
    List<String> names = new ArrayList<>();
    for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    if (!names.isEmpty()) {
      o.put(names.get(random.nextInt(names.size())), "@@JUNK@@");
    }
  }

  private static void collect(JsonNode node, List<ObjectNode> out) {
    if (node instanceof ObjectNode o) {
      out.add(o);
    }
    for (JsonNode child : node) {
      collect(child, out);
    }
  }
}
