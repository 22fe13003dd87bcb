package org.cairn.tracker.tls;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The TLS context of a tracker's HTTPS API and status page. */
public final class HttpsContext {
  private static final Logger LOG = LoggerFactory.getLogger(HttpsContext.class);

  private HttpsContext() {
  }

  /**
   * The tracker's CA and its fresh server certificate; through OpenSSL (BoringSSL, netty-tcnative)
   * where the platform has it, else the JDK.
   */
  public static SslContext of(TrackerCa ca, Path data) throws IOException {
    SslProvider provider = OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    LOG.info("TLS through {}; CA pin sha256:{} (in {}; token create appends it to tokens)",
        provider == SslProvider.OPENSSL ? "OpenSSL (" + OpenSsl.versionString() + ")" : "the JDK", ca.pin(), data.resolve("ca.sha256"));
    return SslContextBuilder.forServer(ca.serverKey(), ca.chain()).sslProvider(provider).protocols("TLSv1.3", "TLSv1.2").build();
  }
}
