package org.cairn.core.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.cairn.core.security.GridToken;

/**
 * JSON calls to the tracker's API with the grid token, shared by peers and clients: timeouts,
 * the bearer header, and errors turned into IOExceptions carrying the tracker's message.
 */
public final class TrackerHttp {
  public static final ObjectMapper JSON = new ObjectMapper();

  private final List<URI> bases;
  /** Index into {@link #bases} of the tracker calls go to first: the last one that answered. */
  private volatile int current;
  private volatile GridToken token;
  /** The calls whose answers the caller reads. */
  private final BlockingHttp calls;
  /** {@link #postAsync}'s client, made at its first use (peers' heartbeats, load generators). */
  private HttpClient async;
  private final Duration timeout;

  public TrackerHttp(URI base, GridToken token, Duration timeout) {
    this(List.of(base), token, timeout);
  }

  /**
   * A client of a tracker group: calls go to the member that answered last and, when it cannot be
   * reached, to the others in order ({@link TrackerEndpoints}).
   */
  public TrackerHttp(List<URI> bases, GridToken token, Duration timeout) {
    if (bases.isEmpty()) {
      throw new IllegalArgumentException("no tracker URL");
    }
    List<URI> clean = new java.util.ArrayList<>();
    for (URI base : bases) {
      String s = base.toString();
      clean.add(URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s));
    }
    this.bases = List.copyOf(clean);
    this.token = token;
    this.timeout = timeout;
    this.calls = new BlockingHttp(pinned() ? org.cairn.core.security.PinnedTrust.context(token.caPin().get()).getSocketFactory() : null,
        timeout);
  }

  /** Whether the token pins the tracker's CA for https: then that CA is trusted and nothing else (no certificate step for peers and clients). */
  private boolean pinned() {
    return "https".equalsIgnoreCase(bases.get(0).getScheme()) && token != null && token.caPin().isPresent();
  }

  private synchronized HttpClient async() {
    if (async == null) {
      HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1);
      if (pinned()) {
        b.sslContext(org.cairn.core.security.PinnedTrust.context(token.caPin().get()));
      } else if (bases.stream().noneMatch(u -> "https".equalsIgnoreCase(u.getScheme()))) {
        b.sslContext(org.cairn.core.security.NoTls.context()); // plain http: skip loading the JDK's CA store
      }
      async = b.build();
    }
    return async;
  }

  /**
   * Builds the mapper's readers and writers of these messages now (a new JVM's Jackson builds each by reflection at
   * its first use: ~10 ms a record type), so a process can do it on a spare thread before its calls need them.
   */
  public static void prepare(List<Class<?>> messages) {
    for (Class<?> type : messages) {
      JSON.readerFor(type); // fetches (builds and caches) the root deserializer
      JSON.writerFor(type);
    }
  }

  /** The tracker calls go to first (the one that answered last). */
  public URI base() {
    return bases.get(current);
  }

  /** Every tracker of the group, as given. */
  public List<URI> bases() {
    return bases;
  }

  /** Calls from now on present {@code credential} (a peer switches to the credential its registration gave it). */
  public void useToken(GridToken credential) {
    this.token = java.util.Objects.requireNonNull(credential, "credential");
  }

  /** A call: its method, path with query, and JSON body (null: none). */
  private record Call(String method, String target, byte[] json) {}

  private byte[] get(String path, Map<String, String> query) throws IOException {
    return send(new Call("GET", path + query(query), null), path);
  }

  private byte[] delete(String path, Map<String, String> query) throws IOException {
    return send(new Call("DELETE", path + query(query), null), path);
  }

  private byte[] post(String path, Object body) throws IOException {
    return send(new Call("POST", path, JSON.writeValueAsBytes(body)), path);
  }

  /**
   * A POST whose answer only matters by its status (load generators): completes with the HTTP status,
   * exceptionally when the tracker could not be reached.
   */
  public java.util.concurrent.CompletableFuture<Integer> postAsync(String path, Object body) {
    byte[] json;
    try {
      json = JSON.writeValueAsBytes(body);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return java.util.concurrent.CompletableFuture.failedFuture(e);
    }
    HttpRequest req = HttpRequest.newBuilder(URI.create(base() + path)).timeout(timeout)
        .header("Authorization", "Bearer " + token.bearerValue()).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(json)).build();
    return async().sendAsync(req, HttpResponse.BodyHandlers.discarding()).thenApply(HttpResponse::statusCode);
  }

  /**
   * A call of {@code method} to {@code path} with {@code query} and, when {@code body} is not null, that
   * body as JSON; the answer read as {@code type}.
   */
  <T> T call(String method, String path, Map<String, String> query, Object body, com.fasterxml.jackson.databind.JavaType type)
      throws IOException {
    byte[] json = body == null ? null : JSON.writeValueAsBytes(body);
    return decode(send(new Call(method, path + query(query), json), path), type, path);
  }

  <T> T get(String path, Map<String, String> query, Class<T> type) throws IOException {
    return decode(get(path, query), type, path);
  }

  <T> T get(String path, Map<String, String> query, com.fasterxml.jackson.databind.JavaType type) throws IOException {
    return decode(get(path, query), type, path);
  }

  <T> T post(String path, Object body, Class<T> type) throws IOException {
    return decode(post(path, body), type, path);
  }

  <T> T delete(String path, Map<String, String> query, Class<T> type) throws IOException {
    return decode(delete(path, query), type, path);
  }

  private <T> T decode(byte[] body, Class<T> type, String path) throws IOException {
    return decode(body, JSON.getTypeFactory().constructType(type), path);
  }

  /** The answer read straight into its record (one pass: no tree of the JSON first). */
  @SuppressWarnings("unchecked")
  private <T> T decode(byte[] body, com.fasterxml.jackson.databind.JavaType type, String path) throws IOException {
    if (type.getRawClass() == String.class) {
      return (T) new String(body, java.nio.charset.StandardCharsets.UTF_8); // the table's text answers (the page, metrics)
    }
    try {
      return JSON.readValue(body, type);
    } catch (com.fasterxml.jackson.core.JsonParseException e) {
      throw new IOException("tracker " + base() + path + " answered 200 with a body that is not JSON");
    } catch (IllegalArgumentException | com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IOException("tracker " + base() + path + " answered JSON of an unexpected shape: " + e.getMessage(), e);
    }
  }

  private static String rootMessage(Throwable e) {
    String m = e.getMessage();
    for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
      if (c.getMessage() != null) {
        m = c.getMessage();
      }
    }
    return m == null ? e.getClass().getSimpleName() : m;
  }

  private static String query(Map<String, String> query) {
    StringBuilder q = new StringBuilder();
    for (Map.Entry<String, String> e : query.entrySet()) {
      q.append(q.length() == 0 ? '?' : '&').append(e.getKey()).append('=').append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
    }
    return q.toString();
  }

  /**
   * Sends to the tracker that answered last; when it cannot be reached, to the others in order (the
   * first that answers is used from then on). Unreachable only when none answers.
   */
  private byte[] send(Call request, String path) throws IOException {
    if (bases.size() == 1) {
      return sendRound(request, path);
    }
    // a group: while it elects a leader every member answers 503; try the round again for a while
    long deadline = System.nanoTime() + ELECTION_WAIT.toNanos();
    for (long pause = 100; ; pause = Math.min(1000, pause * 2)) {
      try {
        return sendRound(request, path);
      } catch (UnreachableException e) {
        if (System.nanoTime() + pause * 1_000_000 > deadline) {
          throw e;
        }
        try {
          Thread.sleep(pause);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while waiting for the tracker group to elect a leader", ie);
        }
      }
    }
  }

  /** How long calls to a tracker group wait for one of its members to lead (an election takes 1-3 s). */
  static final Duration ELECTION_WAIT = Duration.ofSeconds(10);

  private byte[] sendRound(Call request, String path) throws IOException {
    int first = current;
    UnreachableException last = null;
    for (int i = 0; i < bases.size(); i++) {
      int at = (first + i) % bases.size();
      try {
        byte[] answer = send(bases.get(at), request, path);
        if (at != current) {
          current = at;
        }
        return answer;
      } catch (UnreachableException e) {
        if (last != null) {
          e.addSuppressed(last);
        }
        last = e;
      }
    }
    if (bases.size() > 1) {
      throw new UnreachableException("no tracker of " + bases + " answered; the last: " + last.getMessage(), last);
    }
    throw last;
  }

  /** The body of the tracker's 200 answer; any other status is an exception carrying the tracker's message. */
  private byte[] send(URI base, Call call, String path) throws IOException {
    BlockingHttp.Answer res;
    try {
      res = calls.exchange(URI.create(base + call.target()), call.method(), call.json(), "Bearer " + token.bearerValue());
    } catch (javax.net.ssl.SSLException e) {
      throw new IOException("TLS with tracker " + base + " failed: " + rootMessage(e)
          + (token.caPin().isPresent() ? "" : " (the token carries no #sha256: CA pin; use the token 'token create' printed)"), e);
    } catch (IOException e) {
      throw new UnreachableException("tracker " + base + " unreachable: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
          + " (is it running? check --tracker or CAIRN_TRACKER)", e);
    }
    if (res.status() == 200) {
      return res.body(); // read into its record by the caller, in one pass
    }
    if (res.status() == 401) {
      String why;
      try {
        why = JSON.readTree(res.body()).path("error").asText("unknown token");
      } catch (IOException e) {
        why = "unknown token";
      }
      throw new IOException("tracker " + base + " refused the token (401): " + why + "; check --token-file, CAIRN_TOKEN_FILE or CAIRN_TOKEN");
    }
    JsonNode body;
    try {
      body = JSON.readTree(res.body());
    } catch (IOException e) {
      throw new IOException("tracker " + base + path + " answered " + res.status() + " with a body that is not JSON");
    }
    if (res.status() == 503 && body.has("leader")) {
      NotLeaderError e = JSON.treeToValue(body, NotLeaderError.class);
      throw new UnreachableException("tracker " + base + " does not lead its group: " + e.error(), null);
    }
    JsonNode retry = body.path("retryAfterMs"); // ApiError's field
    throw new TrackerException(res.status(), body.path("error").asText("HTTP " + res.status()), retry.isNumber() ? retry.asLong() : null);
  }

  /** A call that did not reach the tracker, or got no answer (the caller may try again). */
  public static final class UnreachableException extends IOException {
    private static final long serialVersionUID = 1L;

    public UnreachableException(String message, IOException cause) {
      super(message, cause);
    }
  }

  /** A call the tracker answered with an error status. */
  public static final class TrackerException extends IOException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final Long retryAfterMs;

    public TrackerException(int status, String message) {
      this(status, message, null);
    }

    public TrackerException(int status, String message, Long retryAfterMs) {
      super(message);
      this.status = status;
      this.retryAfterMs = retryAfterMs;
    }

    public int status() {
      return status;
    }

    /** When the tracker said the same call may succeed after this many ms (hosts BUSY now), else null. */
    public Long retryAfterMs() {
      return retryAfterMs;
    }
  }
}
