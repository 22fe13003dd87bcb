package org.cairn.tracker.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * A chunk held for an app: who holds fragment i ({@code holders.get(i)}, null if none), the bytes
 * of its fragments, and how many committed versions reference it.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChunkRecord(List<String> holders, long storedBytes, int refs) {
  ChunkRecord withRefs(int n) {
    return new ChunkRecord(holders, storedBytes, n);
  }
}
