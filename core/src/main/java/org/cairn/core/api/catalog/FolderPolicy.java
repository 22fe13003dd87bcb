package org.cairn.core.api.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** {@code GET|POST /api/v1/policy}: an app's folder policy (keep-all, replace, purge-after=DURATION). */
@JsonIgnoreProperties(ignoreUnknown = true)
public record FolderPolicy(String app, String folder) {}
