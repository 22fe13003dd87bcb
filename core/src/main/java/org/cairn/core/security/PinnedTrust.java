package org.cairn.core.security;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trust in one CA, named by the SHA-256 of its certificate (the {@code #sha256:} pin a token
 * carries): a server is trusted when it presents a certificate signed by the pinned CA, with the CA
 * in its chain. Nothing else is trusted, not even the JDK's public CAs, and no certificate step is
 * needed beside the token (kubeadm's {@code --discovery-token-ca-cert-hash}). Host names are not
 * checked: only the tracker holds the CA's key, so a certificate it signed identifies the tracker
 * whatever address a peer or client reached it by.
 */
public final class PinnedTrust extends X509ExtendedTrustManager {
  private final String pin;
  private final boolean checkHost;

  public PinnedTrust(String sha256Hex) {
    this(sha256Hex, false);
  }

  /**
   * @param checkHost also require the server certificate to name the host connected to (the data
   *     plane: every peer holds a certificate from the same CA, so a peer must not pass for another)
   */
  public PinnedTrust(String sha256Hex, boolean checkHost) {
    this.checkHost = checkHost;
    if (sha256Hex == null || !sha256Hex.matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException("a CA pin is 64 lowercase hex digits (SHA-256 of the CA certificate)");
    }
    this.pin = sha256Hex;
  }

  /** A TLS context that trusts only the CA pinned by {@code sha256Hex}. */
  public static SSLContext context(String sha256Hex) {
    try {
      SSLContext c = SSLContext.getInstance("TLS");
      c.init(null, new TrustManager[] {new PinnedTrust(sha256Hex)}, null);
      return c;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("TLS is part of every Java platform", e);
    }
  }

  /** The pin of a CA certificate: SHA-256 of its DER encoding, 64 hex digits. */
  public static String fingerprint(X509Certificate ca) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(ca.getEncoded()));
    } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
      throw new IllegalStateException("cannot fingerprint a certificate: " + e.getMessage(), e);
    }
  }

  /** Throws unless {@code chain} is a certificate signed by the pinned CA, followed by that CA. */
  public void check(X509Certificate[] chain) throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException("the server presented no certificate");
    }
    X509Certificate ca = null;
    for (X509Certificate c : chain) {
      if (fingerprint(c).equals(pin)) {
        ca = c;
      }
    }
    if (ca == null) {
      throw new CertificateException("the server's certificate is not from the CA the token pins (sha256:" + pin.substring(0, 12)
          + "…): another tracker, or someone in between");
    }
    ca.checkValidity();
    chain[0].checkValidity();
    try {
      chain[0].verify(ca.getPublicKey());
    } catch (GeneralSecurityException e) {
      throw new CertificateException("the server's certificate is not signed by the pinned CA: " + e.getMessage(), e);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    check(chain);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
    check(chain);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
    check(chain);
    if (checkHost) {
      requireNames(chain[0], engine.getPeerHost());
    }
  }

  /** Throws unless {@code cert}'s subject alternative names include {@code host}. */
  public static void requireNames(X509Certificate cert, String host) throws CertificateException {
    if (host == null) {
      throw new CertificateException("no host to check the certificate against");
    }
    java.util.Collection<java.util.List<?>> names = cert.getSubjectAlternativeNames();
    if (names != null) {
      for (java.util.List<?> n : names) {
        if (host.equalsIgnoreCase(String.valueOf(n.get(1)))) {
          return;
        }
      }
    }
    throw new CertificateException("the certificate of " + host + " is for " + names + ", not for " + host);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    throw new CertificateException("client certificates are not used");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
    throw new CertificateException("client certificates are not used");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
    throw new CertificateException("client certificates are not used");
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
