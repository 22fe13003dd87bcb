package org.cairn.core.api.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import org.cairn.core.manifest.Manifest;

/**
 * {@code POST /api/v1/versions}: commit a version atomically. {@code chunks} are the chunks this store
 * sent (the rest of the manifest's chunks must already be held for the app); {@code session} makes a
 * repeated commit idempotent.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CommitRequest(Manifest manifest, List<NewChunk> chunks, String session, List<SoftHold> soft) {

  public CommitRequest(Manifest manifest, List<NewChunk> chunks, String session) {
    this(manifest, chunks, session, null);
  }

  /**
   * A store written soft ({@code --write soft}): the pieces it sent to {@code peer} are durable once
   * that peer reports soft write {@code seq} durable under boot id {@code boot} (hex).
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record SoftHold(String peer, String boot, long seq) {}

  /**
   * A chunk sent by the store: who holds fragment i (null where no piece was sent yet, as in an
   * optimistic write), each fragment's tag, the stored bytes of all fragments, and the coding of
   * this chunk (null: the manifest's). A chunk the app already holds with weaker coding is replaced
   * by this one. {@code base}: the chunk this one is coded against (hex; null for most), which must
   * be held for the app and not be coded against another.
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record NewChunk(String id, List<String> holders, List<String> tags, long storedBytes, String redundancy, String base) {
    public NewChunk(String id, List<String> holders, List<String> tags, long storedBytes, String redundancy) {
      this(id, holders, tags, storedBytes, redundancy, null);
    }
  }

  /**
   * The answer: the committed step. For a part of a checkpoint set, {@code set}, {@code parts} and
   * {@code partsCommitted}; {@code step} is 0 until the set's last part commits.
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Answer(String app, String node, long step, String set, Integer parts, Integer partsCommitted) {
    public Answer(String app, String node, long step) {
      this(app, node, step, null, null, null);
    }
  }
}
