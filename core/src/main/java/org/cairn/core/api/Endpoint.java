package org.cairn.core.api;

import com.fasterxml.jackson.databind.JavaType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One call of the tracker's HTTP API, declared once for both sides: its method and path template
 * ({@code /api/v1/peers/{id}/bad}), the record its body is read into and the type of its answer,
 * who may call it, how the request names the app, the peer or the chunks it touches (what the
 * tracker checks against the caller's scope before any handler runs), whether it writes (refused to
 * read-only clients), and the largest body it takes. The client builds its calls from it, the
 * tracker routes and authorizes by it: a call without a declared rule cannot exist.
 *
 * @param <Req> the request body's record ({@link Void}: no body)
 * @param <Ans> the answer's type
 */
public final class Endpoint<Req, Ans> {
  /** The body limit of an endpoint that declares none (every call but a few bulk ones). */
  public static final int SMALL_BODY = 1 << 20;

  /**
   * A value a request names, read from its path parameters, query parameters or body (which may be
   * null: a body-less or empty call).
   */
  @FunctionalInterface
  public interface Field<Req, T> {
    T of(Map<String, String> path, Map<String, String> query, Req body);
  }

  private final String method;
  private final String template;
  private final List<String> segments;
  private final Class<Req> request;
  private final JavaType answer;
  private final Set<Caller> callers;
  private final Field<Req, String> app;
  private final Field<Req, String> peer;
  private final Field<Req, List<String>> chunks;
  private final boolean writes;
  private final boolean bodyOptional;
  private final int maxBody;

  private Endpoint(String method, String template, Class<Req> request, JavaType answer, Set<Caller> callers, Field<Req, String> app,
      Field<Req, String> peer, Field<Req, List<String>> chunks, boolean writes, boolean bodyOptional, int maxBody) {
    this.method = method;
    this.template = template;
    this.segments = List.of(template.substring(1).split("/", -1));
    this.request = request;
    this.answer = answer;
    this.callers = Collections.unmodifiableSet(callers.isEmpty() ? EnumSet.noneOf(Caller.class) : EnumSet.copyOf(callers));
    this.app = app;
    this.peer = peer;
    this.chunks = chunks;
    this.writes = writes;
    this.bodyOptional = bodyOptional;
    this.maxBody = maxBody;
  }

  /** A call of {@code method} on {@code template} taking {@code request} bodies, answered with {@code answer}; nobody may call it yet. */
  public static <R, A> Endpoint<R, A> of(String method, String template, Class<R> request, JavaType answer) {
    if (!template.startsWith("/") || template.endsWith("/") && template.length() > 1) {
      throw new IllegalArgumentException("a path template starts with '/' and does not end with one: " + template);
    }
    return new Endpoint<>(method, template, request, answer, Set.of(), null, (p, q, b) -> p.get("id"), null, false, false, SMALL_BODY);
  }

  /** Who may call it (the admin always may). */
  public Endpoint<Req, Ans> by(Caller first, Caller... more) {
    Set<Caller> c = EnumSet.of(Caller.ADMIN, first);
    c.addAll(List.of(more));
    return new Endpoint<>(method, template, request, answer, c, app, peer, chunks, writes, bodyOptional, maxBody);
  }

  /** The app it touches is named by {@code field} (null: none named, nothing to check). */
  public Endpoint<Req, Ans> app(Field<Req, String> field) {
    return new Endpoint<>(method, template, request, answer, callers, field, peer, chunks, writes, bodyOptional, maxBody);
  }

  /** The app it touches is its query parameter {@code app}. */
  public Endpoint<Req, Ans> appInQuery() {
    return app((p, q, b) -> q.get("app"));
  }

  /** The peer a {@link Caller#PEER_SELF} caller must be is named by {@code field} (default: the path's {@code {id}}). */
  public Endpoint<Req, Ans> peer(Field<Req, String> field) {
    return new Endpoint<>(method, template, request, answer, callers, app, field, chunks, writes, bodyOptional, maxBody);
  }

  /** The chunks (hex ids) a client's call is about: each must belong to a version of an app in the client's scope. */
  public Endpoint<Req, Ans> chunks(Field<Req, List<String>> field) {
    return new Endpoint<>(method, template, request, answer, callers, app, peer, field, writes, bodyOptional, maxBody);
  }

  /** It changes what is stored: read-only clients may not call it. */
  public Endpoint<Req, Ans> writes() {
    return new Endpoint<>(method, template, request, answer, callers, app, peer, chunks, true, bodyOptional, maxBody);
  }

  /** An empty body is allowed (the handler gets null and uses its defaults). */
  public Endpoint<Req, Ans> bodyOptional() {
    return new Endpoint<>(method, template, request, answer, callers, app, peer, chunks, writes, true, maxBody);
  }

  /** Bodies up to {@code bytes} (default {@link #SMALL_BODY}). */
  public Endpoint<Req, Ans> maxBody(int bytes) {
    return new Endpoint<>(method, template, request, answer, callers, app, peer, chunks, writes, bodyOptional, bytes);
  }

  public String method() {
    return method;
  }

  public String template() {
    return template;
  }

  /** "METHOD TEMPLATE": how metrics and refusals name it. */
  public String name() {
    return method + " " + template;
  }

  public Class<Req> request() {
    return request;
  }

  /** Whether it takes a body at all. */
  public boolean hasBody() {
    return request != Void.class;
  }

  public JavaType answer() {
    return answer;
  }

  public Set<Caller> callers() {
    return callers;
  }

  /** Null: it names no app. */
  public Field<Req, String> app() {
    return app;
  }

  public Field<Req, String> peer() {
    return peer;
  }

  /** Null: it names no chunks to check. */
  public Field<Req, List<String>> chunks() {
    return chunks;
  }

  public boolean isWrite() {
    return writes;
  }

  public boolean isBodyOptional() {
    return bodyOptional;
  }

  public int maxBody() {
    return maxBody;
  }

  /** The template's parameter names, in order ({@code id} in {@code /api/v1/peers/{id}/bad}). */
  public List<String> parameters() {
    List<String> out = new ArrayList<>();
    for (String s : segments) {
      if (isParameter(s)) {
        out.add(s.substring(1, s.length() - 1));
      }
    }
    return out;
  }

  /**
   * The path with {@code values} in the template's parameters, in order. Each value is one path
   * segment: an empty one, or one with '/', '?', '#' or '%', is refused so no caller can aim a call elsewhere.
   */
  public String path(String... values) {
    StringBuilder sb = new StringBuilder();
    int next = 0;
    for (String s : segments) {
      sb.append('/');
      if (isParameter(s)) {
        if (next >= values.length) {
          throw new IllegalArgumentException(template + " needs " + parameters().size() + " values, got " + values.length);
        }
        sb.append(segment(values[next++]));
      } else {
        sb.append(s);
      }
    }
    if (next != values.length) {
      throw new IllegalArgumentException(template + " needs " + parameters().size() + " values, got " + values.length);
    }
    return sb.toString();
  }

  /**
   * The path parameters if {@code path} fits the template (whatever the method), else null.
   * {@code path} starts with '/'.
   */
  public Map<String, String> match(String path) {
    String[] parts = path.length() <= 1 ? new String[] {""} : path.substring(1).split("/", -1);
    if (parts.length != segments.size()) {
      return null;
    }
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 0; i < parts.length; i++) {
      String s = segments.get(i);
      if (isParameter(s)) {
        if (parts[i].isEmpty()) {
          return null;
        }
        params.put(s.substring(1, s.length() - 1), parts[i]);
      } else if (!s.equals(parts[i])) {
        return null;
      }
    }
    return params;
  }

  private static boolean isParameter(String segment) {
    return segment.length() > 2 && segment.startsWith("{") && segment.endsWith("}");
  }

  private static String segment(String s) {
    if (s == null || s.isEmpty() || s.contains("/") || s.contains("?") || s.contains("#") || s.contains("%")) {
      throw new IllegalArgumentException("not a valid id: '" + s + "'");
    }
    return s;
  }

  @Override
  public String toString() {
    return name();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Endpoint<?, ?> e && e.method.equals(method) && e.template.equals(template);
  }

  @Override
  public int hashCode() {
    return Objects.hash(method, template);
  }
}
