package org.cairn.core.api.member;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * GET /api/v1/dataplane: the key clients prove on the data plane (HMAC of each connection's
 * challenge). Given to client and admin credentials only; peers get it with their registration.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record DataPlaneKey(String key) {
  @Override
  public String toString() {
    return "DataPlaneKey[redacted]";
  }
}
