package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Every API error: an HTTP status and a message saying what was wrong; {@code retryAfterMs} when the same
 * call may succeed after that long (a placement that lacks hosts only while some are BUSY or FULL), else null.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ApiError(int status, String error, Long retryAfterMs) {
  public ApiError(int status, String error) {
    this(status, error, null);
  }
}
