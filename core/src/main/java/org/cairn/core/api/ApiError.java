package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** Every API error: an HTTP status and a message saying what was wrong. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiError(int status, String error) {}
