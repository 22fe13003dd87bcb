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
 * ({@value #PEER_PREFIX}ID, for the host it advertised, with the URI {@value #PEER_URI}ID) on the data
 * plane, where the host must match, so no donor's certificate passes for the tracker. The host alone
 * does not tell one donor from another that got a certificate for the same address (or took it over),
 * so a client that knows which peer it dials also checks the certificate names that peer's id
 * ({@link #requirePeer}, after the handshake: {@code PeerConnection}).
 */
public final class PinnedTrust extends X509ExtendedTrustManager {
  /** The subject of a tracker's HTTPS certificate. */
  public static final String TRACKER = "CN=Cairn tracker";
  /** How the subject of a peer's data-plane certificate starts (then the peer's id). */
  public static final String PEER_PREFIX = "CN=Cairn peer ";
  /** How the URI naming a peer in its data-plane certificate's subject alternative names starts (then the peer's id). */
  public static final String PEER_URI = "cairn-peer:";
  /** What a peer id may be: what a certificate's subject can carry unquoted, and what peers are given. */
  public static final String PEER_ID = "[A-Za-z0-9._-]{1,64}";
  /** The type of a URI subject alternative name (RFC 5280 GeneralName uniformResourceIdentifier). */
  private static final int SAN_URI = 6;

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

  /**
   * Throws unless {@code cert} is a data-plane certificate for peer {@code peerId}: its subject is
   * {@value #PEER_PREFIX}{@code peerId}, and its URI names, if any are peer names, are {@value #PEER_URI}{@code peerId}
   * alone (certificates issued before the URI was added name the peer in the subject only).
   */
  public static void requirePeer(X509Certificate cert, String peerId) throws CertificateException {
    if (peerId == null || !peerId.matches(PEER_ID)) {
      throw new CertificateException("no valid peer id to check the certificate against: '" + peerId + "'");
    }
    String subject = cert.getSubjectX500Principal().getName(javax.security.auth.x500.X500Principal.RFC2253);
    if (!subject.equals(PEER_PREFIX + peerId)) {
      throw new CertificateException("the certificate is for '" + subject + "', not for peer " + peerId
          + " (the peer dialled): another donor at its address");
    }
    java.util.Collection<java.util.List<?>> names = cert.getSubjectAlternativeNames();
    if (names != null) {
      for (java.util.List<?> n : names) {
        String value = String.valueOf(n.get(1));
        if (((Integer) n.get(0)) == SAN_URI && value.startsWith(PEER_URI) && !value.equals(PEER_URI + peerId)) {
          throw new CertificateException("the certificate names " + value + ", not peer " + peerId + " (the peer dialled)");
        }
      }
    }
  }

  /** The peer id a data-plane certificate names in its subject, or null if it is no peer's. */
  public static String peerId(X509Certificate cert) {
    String subject = cert.getSubjectX500Principal().getName(javax.security.auth.x500.X500Principal.RFC2253);
    String id = subject.startsWith(PEER_PREFIX) ? subject.substring(PEER_PREFIX.length()) : null;
    return id != null && id.matches(PEER_ID) ? id : null;
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
