package org.cairn.it.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A man in the middle between a {@code cairn} client and a plain-HTTP tracker: a thread with a
 * {@link ServerSocket} that reads each HTTP/1.1 request, records its head (so a test can say what
 * crossed the wire), forwards it to the tracker and answers with the tracker's answer, every
 * manifest in it rewritten as the test says (without its {@code "encryption"}, say). With a TLS
 * identity of its own ({@link #selfSigned}) it instead terminates TLS with that certificate, as an
 * attacker without the tracker's CA key must: what it would read after a handshake is recorded, and
 * answered 502.
 */
final class TrackerProxy implements Closeable {
  private final ServerSocket server;
  private final String upstream;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
  private final List<String> seen = new CopyOnWriteArrayList<>();
  private final List<String> handshakes = new CopyOnWriteArrayList<>();
  private final AtomicInteger rewritten = new AtomicInteger();
  private final boolean tls;
  private final Predicate<ObjectNode> rewrite;

  private TrackerProxy(ServerSocket server, String upstream, boolean tls, Predicate<ObjectNode> rewrite) {
    this.server = server;
    this.upstream = upstream;
    this.tls = tls;
    this.rewrite = rewrite;
    Thread t = new Thread(this::acceptLoop, "mitm-accept");
    t.setDaemon(true);
    t.start();
  }

  /** A proxy to the plain-HTTP tracker {@code upstream} that strips manifests' encryption. */
  static TrackerProxy plain(String upstream) throws IOException {
    return plain(upstream, m -> m.remove("encryption") != null);
  }

  /**
   * A proxy to the plain-HTTP tracker {@code upstream} that passes each manifest it forwards (the
   * {@code "manifest"} object of {@code GET /api/v1/manifest}'s answer) through {@code rewrite}, which
   * changes it in place and says whether it did.
   */
  static TrackerProxy plain(String upstream, Predicate<ObjectNode> rewrite) throws IOException {
    return new TrackerProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), upstream, false, rewrite);
  }

  /** A proxy that terminates TLS with a self-signed certificate made for it in {@code dir} (by {@code keytool}). */
  static TrackerProxy selfSigned(Path dir) throws Exception {
    Path store = dir.resolve("mitm.p12");
    Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
        "-alias", "mitm", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=Cairn tracker", "-validity", "2",
        "-ext", "san=ip:127.0.0.1", "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", "mitmpass",
        "-keypass", "mitmpass").redirectErrorStream(true).start();
    String said = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (keytool.waitFor() != 0) {
      throw new IOException("keytool failed: " + said);
    }
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      ks.load(in, "mitmpass".toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, "mitmpass".toCharArray());
    SSLContext c = SSLContext.getInstance("TLS");
    c.init(kmf.getKeyManagers(), null, null);
    return new TrackerProxy(c.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress()), null, true,
        m -> false);
  }

  /** The proxy's address as a tracker URL. */
  String url() {
    return (tls ? "https" : "http") + "://127.0.0.1:" + server.getLocalPort();
  }

  /** The heads of the requests the proxy read (request line and headers, as sent). */
  List<String> seen() {
    return seen;
  }

  /** How TLS handshakes with clients ended ("ok", or why they failed). */
  List<String> handshakes() {
    return handshakes;
  }

  /** How many manifests the proxy rewrote. */
  int rewritten() {
    return rewritten.get();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        Thread t = new Thread(() -> serve(s), "mitm-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket s) {
    try (s) {
      s.setSoTimeout(30_000);
      if (s instanceof SSLSocket ssl) {
        try {
          ssl.startHandshake();
          handshakes.add("ok");
        } catch (IOException e) {
          handshakes.add(e.toString());
          return;
        }
      }
      InputStream in = new BufferedInputStream(s.getInputStream());
      OutputStream out = s.getOutputStream();
      while (true) {
        String head = readHead(in);
        if (head == null) {
          return;
        }
        seen.add(head);
        byte[] body = in.readNBytes(contentLength(head));
        byte[][] answer = tls ? new byte[][] {"502".getBytes(StandardCharsets.US_ASCII), new byte[0]} : forward(head, body);
        String status = new String(answer[0], StandardCharsets.US_ASCII);
        out.write(("HTTP/1.1 " + status + " X\r\nContent-Type: application/json\r\nContent-Length: " + answer[1].length + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        out.write(answer[1]);
        out.flush();
      }
    } catch (Exception e) {
      seen.add("proxy error: " + e);
    }
  }

  /** Sends the request on to the tracker; returns its status and body (a manifest rewritten). */
  private byte[][] forward(String head, byte[] body) throws Exception {
    String[] line = head.lines().findFirst().orElseThrow().split(" ");
    HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(upstream + line[1])).timeout(Duration.ofSeconds(60));
    for (String h : head.lines().skip(1).toList()) {
      int colon = h.indexOf(':');
      String name = colon < 0 ? "" : h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      if (name.equals("authorization") || name.equals("content-type") || name.equals("accept")) {
        r.header(h.substring(0, colon).trim(), h.substring(colon + 1).trim());
      }
    }
    r.method(line[0], body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
    HttpResponse<byte[]> a = http.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
    byte[] answer = a.body();
    if (line[1].startsWith("/api/v1/manifest") && a.statusCode() == 200) {
      JsonNode json = Hostile.JSON.readTree(answer);
      if (json.path("manifest") instanceof ObjectNode m && rewrite.test(m)) {
        rewritten.incrementAndGet();
        answer = Hostile.JSON.writeValueAsBytes(json);
      }
    }
    return new byte[][] {Integer.toString(a.statusCode()).getBytes(StandardCharsets.US_ASCII), answer};
  }

  /** The request line and headers up to the blank line, or null at the end of the stream. */
  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    int b;
    while ((b = in.read()) >= 0) {
      head.write(b);
      matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
      if (matched == 4) {
        return head.toString(StandardCharsets.ISO_8859_1);
      }
    }
    return null;
  }

  private static int contentLength(String head) {
    for (String h : head.lines().toList()) {
      if (h.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        return Integer.parseInt(h.substring(15).trim());
      }
    }
    return 0;
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
