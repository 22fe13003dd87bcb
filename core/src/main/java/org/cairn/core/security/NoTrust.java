package org.cairn.core.security;

import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * A TLS context that trusts no certificate, for an HTTP client whose every address is plain
 * {@code http}: the JDK's {@code HttpClient} otherwise builds the platform's default context, which
 * reads the JDK's whole CA store (about 0.1 s of a one-command {@code cairn store}'s start, measured
 * in docs/benchmarks.md, "A cold store's start"). Should such a client ever be sent to an
 * {@code https} address, its handshake fails instead of trusting the JDK's CAs by accident.
 */
public final class NoTrust implements X509TrustManager {
  private NoTrust() {}

  /** A context that refuses every server and presents no client certificate. */
  public static SSLContext context() {
    try {
      SSLContext c = SSLContext.getInstance("TLS");
      c.init(null, new TrustManager[] {new NoTrust()}, null);
      return c;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("TLS is part of every Java platform", e);
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    throw new CertificateException("this client trusts no certificate: its tracker addresses are plain http");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    throw new CertificateException("this client trusts no certificate: its tracker addresses are plain http");
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
