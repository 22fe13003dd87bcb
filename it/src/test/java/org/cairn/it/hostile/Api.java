package org.cairn.it.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import org.cairn.core.security.GridToken;
import org.cairn.core.security.PinnedTrust;

/**
 * Raw calls to a tracker's HTTP API with any token, as an attacker makes them: method, path (sent
 * as given, so it may hold percent-escapes), body and bearer token of the caller's choosing. For an
 * https:// tracker it trusts only the CA the given pin names.
 */
final class Api {
  private final String base;
  private final HttpClient http;

  /** @param pin the CA pin of an https:// tracker (from a token), or empty for http:// */
  Api(String base, Optional<String> pin) {
    this.base = base;
    HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).version(HttpClient.Version.HTTP_1_1);
    if (base.startsWith("https://")) {
      b.sslContext(PinnedTrust.context(pin.orElseThrow(() -> new IllegalArgumentException("an https:// tracker needs a CA pin"))));
    }
    this.http = b.build();
  }

  /** An API client for the tracker {@code base} with the pin {@code anyToken} carries. */
  static Api of(String base, String anyToken) {
    return new Api(base, GridToken.of(anyToken).caPin());
  }

  /** One call: {@code token} a token's text (its pin, if any, is not sent), or null for none. */
  Reply call(String method, String path, String json, String token) throws IOException, InterruptedException {
    HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(20));
    if (token != null) {
      r.header("Authorization", "Bearer " + GridToken.of(token).bearerValue());
    }
    if (json != null) {
      r.header("Content-Type", "application/json");
    }
    r.method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
    HttpResponse<String> answer = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(method + " " + path, answer.statusCode(), answer.body());
  }

  Reply get(String path, String token) throws IOException, InterruptedException {
    return call("GET", path, null, token);
  }

  Reply post(String path, Object body, String token) throws IOException, InterruptedException {
    return call("POST", path, body instanceof String s ? s : Hostile.JSON.writeValueAsString(body), token);
  }

  /** An answer: what was asked, its status and body. */
  record Reply(String request, int status, String body) {
    JsonNode json() throws IOException {
      return Hostile.JSON.readTree(body);
    }

    @Override
    public String toString() {
      return request + " -> " + status + " " + (body.length() > 300 ? body.substring(0, 300) + "..." : body);
    }
  }
}
