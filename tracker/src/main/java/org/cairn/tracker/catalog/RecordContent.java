package org.cairn.tracker.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.Map;

/**
 * What a catalog record holds, before it is packed and sealed: one committed version as
 * the tracker stored it (manifests, sizes, commit time), the index entries of its chunks and their bases
 * as they were when the record was made (holders may have moved since: recovery asks the peers who
 * holds each piece now), and the app's retention policy. {@code format} 1.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RecordContent(int format, String app, String node, long step, String policy, VersionRecord version,
    Map<String, ChunkRecord> chunks) {
  public static final int FORMAT = 1;
}
