package org.cairn.tracker.tls;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.security.auth.x500.X500Principal;
import org.cairn.core.security.PinnedTrust;

/**
 * Trust between the members of a tracker group, on both ends of their mutually authenticated Raft
 * connections: the other end must present a member certificate ({@value #PREFIX}ID, ID one of the
 * group's) signed by the group's CA, for the purpose it is used for (client or server). The CA also
 * signs the trackers' HTTPS certificates and every donor's data-plane certificate; neither is a
 * member's, so no donor (and no client) can take part in the group's replication. When the dialled
 * host is known, the certificate must name it.
 */
public final class MemberTrust extends X509ExtendedTrustManager {
  /** How a member certificate's subject starts (then the member's id). */
  public static final String PREFIX = "CN=Cairn tracker member ";
  private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
  private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";

  private final X509Certificate ca;
  private final PinnedTrust chainCheck;
  private final Set<String> members;

  /**
   * @param ca the group's CA certificate
   * @param members the ids of the group's members
   */
  public MemberTrust(X509Certificate ca, Set<String> members) {
    this.ca = ca;
    this.chainCheck = new PinnedTrust(PinnedTrust.fingerprint(ca));
    this.members = Set.copyOf(members);
  }

  /** Throws unless {@code chain} is a member's certificate from the group's CA, usable for {@code purpose}. */
  void check(X509Certificate[] chain, String purpose) throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException("no certificate presented: not a member of this tracker group");
    }
    X509Certificate[] withCa = chain.length > 1 ? chain : new X509Certificate[] {chain[0], ca};
    chainCheck.check(withCa);
    String subject = chain[0].getSubjectX500Principal().getName(X500Principal.RFC2253);
    String id = subject.startsWith(PREFIX) ? subject.substring(PREFIX.length()) : null;
    if (id == null || !members.contains(id)) {
      throw new CertificateException("the certificate is for '" + subject + "', not for a member of this tracker group ("
          + String.join(", ", members.stream().sorted().toList()) + ")");
    }
    List<String> uses;
    try {
      uses = chain[0].getExtendedKeyUsage();
    } catch (CertificateParsingException e) {
      throw new CertificateException("member " + id + "'s certificate has unreadable key usages", e);
    }
    if (uses == null || !uses.contains(purpose)) {
      throw new CertificateException("member " + id + "'s certificate is not for " + (purpose.equals(CLIENT_AUTH) ? "client" : "server")
          + " authentication");
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    check(chain, CLIENT_AUTH);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
    check(chain, CLIENT_AUTH);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
    check(chain, CLIENT_AUTH);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    check(chain, SERVER_AUTH);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
    check(chain, SERVER_AUTH);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
    check(chain, SERVER_AUTH);
    if (engine != null && engine.getPeerHost() != null) {
      PinnedTrust.requireNames(chain[0], engine.getPeerHost());
    }
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[] {ca};
  }
}
