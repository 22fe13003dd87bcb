package org.cairn.core.manifest;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;
import org.cairn.core.hash.ChunkId;

/** One entry of a chunk map: the chunk's content id and plaintext length. */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class ChunkRef {
  private final ChunkId id;
  private final int length;

  @JsonCreator
  public ChunkRef(@JsonProperty("id") ChunkId id, @JsonProperty("length") int length) {
    this.id = Objects.requireNonNull(id, "chunk id");
    if (length < 0) {
      throw new IllegalArgumentException("chunk length must be >= 0, was " + length);
    }
    this.length = length;
  }

  @JsonProperty("id")
  public ChunkId id() {
    return id;
  }

  @JsonProperty("length")
  public int length() {
    return length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ChunkRef && ((ChunkRef) o).id.equals(id) && ((ChunkRef) o).length == length;
  }

  @Override
  public int hashCode() {
    return id.hashCode() * 31 + length;
  }

  @Override
  public String toString() {
    return id.shortHex() + ":" + length;
  }
}
