package org.cairn.core.api.status;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.Map;

/** {@code GET /api/v1/apps}: an app with its nodes and each node's version count. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AppSummary(String app, Map<String, Integer> nodes) {}
