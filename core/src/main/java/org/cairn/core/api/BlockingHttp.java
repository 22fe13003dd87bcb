package org.cairn.core.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.time.Duration;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLSocketFactory;

/**
 * One HTTP/1.1 exchange with a tracker, blocking on the caller's thread, over the JDK's {@link HttpURLConnection}
 * (connections kept alive between calls by the JDK's cache; a POST whose kept-alive connection turns out closed is
 * sent once more on a new one, as the JDK does for requests it buffered). Chosen over the JDK's {@code HttpClient}
 * for what a call costs where it matters, in a JVM that lives for one command: that client's reactive machinery ran
 * interpreted on two threads of its own, ~17 ms of CPU a call against ~2 ms here, and it was 8 % of a one-command
 * store's CPU (docs/benchmarks/journal.md, "One-command stores, part 4").
 */
final class BlockingHttp {
  /** A status and its body (empty when the answer had none). */
  record Answer(int status, byte[] body) {}

  /** Null: the JDK's own (its trusted CAs for https; unused for http). */
  private final SSLSocketFactory tls;
  private final int timeoutMillis;

  BlockingHttp(SSLSocketFactory tls, Duration timeout) {
    this.tls = tls;
    this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
  }

  /**
   * Sends {@code method} to {@code uri} with {@code json} as its body (null: none) and reads the whole answer.
   *
   * @throws IOException when the tracker could not be reached or the connection broke before the whole answer
   */
  Answer exchange(URI uri, String method, byte[] json, String authorization) throws IOException {
    HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY); // as the JDK's HttpClient: no proxy
    if (tls != null && c instanceof HttpsURLConnection s) {
      s.setSSLSocketFactory(tls);
    }
    c.setConnectTimeout(timeoutMillis);
    c.setReadTimeout(timeoutMillis);
    c.setUseCaches(false);
    c.setInstanceFollowRedirects(false);
    c.setRequestMethod(method);
    c.setRequestProperty("Authorization", authorization);
    c.setRequestProperty("Accept", "application/json");
    if (json != null) {
      c.setDoOutput(true);
      c.setRequestProperty("Content-Type", "application/json");
      try (OutputStream out = c.getOutputStream()) {
        out.write(json);
      }
    }
    int status = c.getResponseCode();
    if (status < 0) {
      c.disconnect();
      throw new IOException("the answer was not HTTP");
    }
    InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
    if (in == null) {
      return new Answer(status, new byte[0]);
    }
    try (in) {
      return new Answer(status, in.readAllBytes()); // read to its end, so the connection goes back to the cache
    }
  }
}
