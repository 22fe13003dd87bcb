package org.cairn.core.security;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 under one key, with a {@link Mac} kept per thread: {@code Mac.getInstance} and
 * {@code init} (the JCA's provider search) cost more than the HMAC of a ticket's few hundred bytes
 * (1.6 % of a peer's CPU while ingesting went to them when each check made its own).
 */
final class KeyedHmac {
  private final ThreadLocal<Mac> mac;

  KeyedHmac(byte[] key) {
    SecretKeySpec spec = new SecretKeySpec(key.clone(), "HmacSHA256");
    this.mac = ThreadLocal.withInitial(() -> {
      try {
        Mac m = Mac.getInstance("HmacSHA256");
        m.init(spec);
        return m;
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
      }
    });
  }

  /** The HMAC of {@code data} (the thread's Mac is reset by it for the next call). */
  byte[] of(byte[] data) {
    return mac.get().doFinal(data);
  }
}
