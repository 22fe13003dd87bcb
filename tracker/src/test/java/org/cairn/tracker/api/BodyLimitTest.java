package org.cairn.tracker.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.cairn.core.config.HostPort;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over HTTP: a body larger than its endpoint takes is refused from the request's head (or from the
 * chunks so far), before the tracker gathers it; a caller it does not know may not send more than a
 * small body. The answers come while the client has sent only the head.
 */
@Timeout(60)
class BodyLimitTest {
  @TempDir
  Path dir;

  private ApiFixture f;
  private HttpApiServer server;

  @BeforeEach
  void open() throws Exception {
    f = new ApiFixture(dir);
    server = new HttpApiServer(HostPort.parse("127.0.0.1:0"), f.api);
  }

  @AfterEach
  void close() {
    server.close();
    f.close();
  }

  private Socket connect() throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
    s.setSoTimeout(10_000);
    return s;
  }

  private static String head(String method, String path, String token, String length) {
    return method + " " + path + " HTTP/1.1\r\nHost: tracker\r\n" + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
        + "Content-Type: application/json\r\n" + length + "\r\n";
  }

  /** The status line of the answer. */
  private static String status(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    StringBuilder line = new StringBuilder();
    for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
      line.append((char) b);
    }
    return line.toString().trim();
  }

  @Test
  void aStrangersLargeBody_isRefusedWith401_beforeItIsSent() throws IOException {
    try (Socket s = connect()) {
      s.getOutputStream().write(head("POST", "/api/v1/peers", null, "Content-Length: 50000000\r\n").getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      assertThat(status(s)).isEqualTo("HTTP/1.1 401 Unauthorized");
    }
  }

  @Test
  void aBodyOverItsEndpointsLimit_isRefusedWith413_fromTheHead() throws IOException {
    try (Socket s = connect()) {
      s.getOutputStream().write(head("POST", "/api/v1/bandwidth", f.admin, "Content-Length: 2000000\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      assertThat(status(s)).isEqualTo("HTTP/1.1 413 Request Entity Too Large");
    }
  }

  @Test
  void aChunkedBodyOverItsEndpointsLimit_isRefusedWith413_asItArrives() throws IOException {
    try (Socket s = connect()) {
      OutputStream out = s.getOutputStream();
      out.write(head("POST", "/api/v1/bandwidth", f.admin, "Transfer-Encoding: chunked\r\n").getBytes(StandardCharsets.US_ASCII));
      byte[] chunk = new byte[64 << 10];
      java.util.Arrays.fill(chunk, (byte) ' ');
      try {
        for (int i = 0; i < 20; i++) { // 1.25 MiB, over the 1 MiB a bandwidth report takes
          out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
          out.write(chunk);
          out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.flush();
      } catch (IOException e) {
        // the tracker answered and closed while we were still sending: what it answered is below
      }
      assertThat(status(s)).isEqualTo("HTTP/1.1 413 Request Entity Too Large");
    }
  }

  @Test
  void aRefusedClientMayFinishSendingItsBody_thenTheConnectionCloses() throws IOException {
    byte[] part = new byte[256 << 10];
    java.util.Arrays.fill(part, (byte) ' ');
    try (Socket s = connect()) {
      OutputStream out = s.getOutputStream();
      out.write(head("POST", "/api/v1/bandwidth", f.admin, "Content-Length: " + (16 * part.length) + "\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertThat(status(s)).isEqualTo("HTTP/1.1 413 Request Entity Too Large");
      // the answer is read; the rest of the announced body still goes out (a client that sends before it reads):
      // a connection closed at once would reset these writes
      for (int i = 0; i < 16; i++) {
        out.write(part);
        out.flush();
      }
      InputStream in = s.getInputStream();
      while (in.read() >= 0) {
        // the rest of the answer, then the close (within the socket's 10 s timeout)
      }
    }
  }

  @Test
  void aRefusedClientThatGoesOnSending_isCutOffAfterTheLingerAllowance() throws IOException {
    byte[] part = new byte[1 << 20];
    try (Socket s = connect()) {
      OutputStream out = s.getOutputStream();
      out.write(head("POST", "/api/v1/bandwidth", f.admin, "Content-Length: " + (1L << 40) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertThat(status(s)).isEqualTo("HTTP/1.1 413 Request Entity Too Large");
      assertThatThrownBy(() -> {
        for (int i = 0; i < 64; i++) { // 64 MiB, four times what a refused connection drops before it is closed
          out.write(part);
        }
        out.flush();
      }).isInstanceOf(IOException.class);
    }
  }

  @Test
  void aCommitMayBeLargerThanOtherCalls() throws IOException {
    StringBuilder padded = new StringBuilder(f.commit(ApiFixture.A, f.chunkA));
    padded.insert(padded.length() - 1, ",\"pad\":\"" + " ".repeat(2 << 20) + "\"");
    byte[] body = padded.toString().getBytes(StandardCharsets.UTF_8);
    try (Socket s = connect()) {
      s.getOutputStream().write(head("POST", "/api/v1/versions", f.admin, "Content-Length: " + body.length + "\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().write(body);
      s.getOutputStream().flush();
      assertThat(status(s)).isEqualTo("HTTP/1.1 200 OK");
    }
  }
}
