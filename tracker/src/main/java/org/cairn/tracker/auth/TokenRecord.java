package org.cairn.tracker.auth;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One issued credential as the tracker keeps it: never the secret, only its SHA-256 ({@code hash}).
 * {@code expires} (epoch millis) and {@code uses} (registrations left, for a donor enrollment
 * token) are null when unlimited: a donor token is issued with one use unless its issuer asks for more
 * or for unlimited ({@link TokenStore#issue}); records written before that default keep what they say.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TokenRecord(String id, String role, List<String> apps, boolean readOnly, Long expires, Integer uses, String peer,
    long created, boolean revoked, String hash, String note) {

  TokenRecord withUses(Integer left) {
    return new TokenRecord(id, role, apps, readOnly, expires, left, peer, created, revoked, hash, note);
  }

  TokenRecord revoke() {
    return new TokenRecord(id, role, apps, readOnly, expires, uses, peer, created, true, hash, note);
  }

  /** What {@code token list} shows: everything but the hash. */
  public TokenRecord shown() {
    return new TokenRecord(id, role, apps, readOnly, expires, uses, peer, created, revoked, null, note);
  }
}
