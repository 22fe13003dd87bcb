package org.cairn.core.api.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * {@code GET /api/v1/records?app=A&node=N&step=S}: the version's catalog record sealed under the grid's
 * catalog key (base64), for the store that committed it to put on the grid beside its chunks
 * ({@link org.cairn.core.catalog.CatalogRecord}); {@code id} is the record's chunk id (hex).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CatalogRecordBlob(String app, String node, long step, String id, String sealed) {

  /** The sealed bytes. */
  public byte[] sealedBytes() {
    return java.util.Base64.getDecoder().decode(sealed);
  }
}
