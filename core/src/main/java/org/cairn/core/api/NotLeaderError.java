package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The 503 a member of a tracker group answers when it does not lead: {@code leader} is the member
 * that does (empty while an election runs). Clients try the other trackers they were given.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record NotLeaderError(int status, String error, String leader) {}
