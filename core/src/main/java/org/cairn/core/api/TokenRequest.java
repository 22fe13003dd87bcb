package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * {@code POST /api/v1/tokens} (admin): issue a token on a running tracker, as {@code cairn-tracker token
 * create} does on a data directory; in a tracker group every member learns it. {@code role} is
 * client, donor or admin; {@code apps} and {@code readOnly} scope client tokens; {@code uses} limits a
 * donor token's joins; {@code expiresInSeconds} null means until revoked.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TokenRequest(String role, List<String> apps, boolean readOnly, Long expiresInSeconds, Integer uses, String note) {

  /** The new token's text (with the tracker CA's pin when it serves TLS): shown once, kept nowhere in clear. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Answer(String token) {}
}
