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
 * needed beside the token (kubeadm's {@code --discovery-token-ca-cert-hash}). The CA signs two kinds
 * of server certificate, and each side accepts only its own: the tracker's ({@value #TRACKER}) on the
 * control plane, whatever address it was reached by (only trackers hold the CA's key), and a peer's
 * ({@value #PEER_PREFIX}ID, for the host it advertised) on the data plane, where the host must match, so
 * no donor's certificate passes for the tracker and no donor passes for another.
 */
public final class PinnedTrust extends X509ExtendedTrustManager {
  /** The subject of a tracker's HTTPS certificate. */
  public static final String TRACKER = "CN=Cairn tracker";
  /** How the subject of a peer's data-plane certificate starts (then the peer's id). */
  public static final String PEER_PREFIX = "CN=Cairn peer ";

  private final String pin;
  private final boolean checkHost;

  /** Trust for the control plane: a tracker's certificate from the pinned CA. */
  public PinnedTrust(String sha256Hex) {
    this(sha256Hex, false);
  }

  /**
   * @param checkHost the data plane: require a peer's certificate that names the host connected to
   *     (every peer holds a certificate from the same CA, so a peer must not pass for another); else
   *     the control plane: require the tracker's certificate
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

  /** {@link #check} and the kind of certificate this side accepts (the tracker's, or a peer's). */
  public void checkRole(X509Certificate[] chain) throws CertificateException {
    check(chain);
    String subject = chain[0].getSubjectX500Principal().getName(javax.security.auth.x500.X500Principal.RFC2253);
    if (checkHost ? !subject.startsWith(PEER_PREFIX) || subject.indexOf(',') >= 0 || subject.indexOf('+') >= 0
        : !subject.equals(TRACKER)) {
      throw new CertificateException("the server's certificate is for '" + subject + "', not for " + (checkHost ? "a peer" : "the tracker")
          + " (from the pinned CA, but " + (checkHost ? "not a donor's" : "a donor's or another member's") + ")");
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    checkRole(chain);
    if (checkHost) {
      throw new CertificateException("no host to check the peer's certificate against");
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
    checkRole(chain);
    if (checkHost) {
      requireNames(chain[0], socket == null || socket.getInetAddress() == null ? null : socket.getInetAddress().getHostAddress());
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
    checkRole(chain);
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
