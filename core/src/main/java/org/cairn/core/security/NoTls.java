package org.cairn.core.security;

import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * A TLS context that makes no connection, for an HTTP client whose every address is plain
 * {@code http}. The JDK's {@code HttpClient} otherwise builds the platform's default context when it is
 * built (the JSSE provider, its cipher suites, the JDK's whole CA store): ~0.1-0.2 s of a one-command
 * {@code cairn store}'s start (docs/benchmarks/journal.md, "A cold store's start"), for a client that never speaks
 * TLS. Should such a client be sent to an {@code https} address, the request fails ("this client is
 * configured for plain http only") instead of trusting anything.
 */
public final class NoTls extends SSLContext {
  private static final String REFUSED = "this client is configured for plain http only: its tracker addresses are http://";

  private NoTls() {
    super(new Refusing(), null, "none");
  }

  /** A new context that refuses every TLS connection. */
  public static SSLContext context() {
    return new NoTls();
  }

  private static final class Refusing extends SSLContextSpi {
    @Override
    protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random) {
      // nothing to set up: no connection is ever made
    }

    @Override
    protected SSLSocketFactory engineGetSocketFactory() {
      throw new UnsupportedOperationException(REFUSED);
    }

    @Override
    protected SSLServerSocketFactory engineGetServerSocketFactory() {
      throw new UnsupportedOperationException(REFUSED);
    }

    @Override
    protected SSLEngine engineCreateSSLEngine() {
      throw new UnsupportedOperationException(REFUSED);
    }

    @Override
    protected SSLEngine engineCreateSSLEngine(String host, int port) {
      throw new UnsupportedOperationException(REFUSED);
    }

    @Override
    protected SSLSessionContext engineGetServerSessionContext() {
      return null;
    }

    @Override
    protected SSLSessionContext engineGetClientSessionContext() {
      return null;
    }

    @Override
    protected SSLParameters engineGetDefaultSSLParameters() {
      return new SSLParameters();
    }

    @Override
    protected SSLParameters engineGetSupportedSSLParameters() {
      return new SSLParameters();
    }
  }
}
