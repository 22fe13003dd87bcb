package org.cairn.tracker.tls;

import java.io.IOException;

/**
 * Certifies a peer's data-plane key at its registration (a tracker with TLS): the answer's
 * {@code certificate} and {@code caCertificate}, base64 DER.
 */
public interface PeerCertifier {
  /**
   * A certificate for {@code publicKey} (base64 SubjectPublicKeyInfo), naming peer {@code id} (which
   * clients dialling that peer check) reached at {@code host}.
   */
  Issued certify(String id, String host, String publicKey) throws IOException;

  /** A certificate and its CA's, base64 DER. */
  record Issued(String certificate, String caCertificate) {}
}
