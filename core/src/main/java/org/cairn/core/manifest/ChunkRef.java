package org.cairn.core.manifest;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;
import org.cairn.core.hash.ChunkId;

/**
 * One entry of a chunk map: the chunk's content id, plaintext length and, for a chunk of memory in a
 * recognised checkpoint format, the memory address of its first byte ({@code addr}, absent otherwise):
 * the next checkpoint's chunk at that address is coded against this one (older readers ignore it).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class ChunkRef {
  private final ChunkId id;
  private final int length;
  private final Long addr;

  public ChunkRef(ChunkId id, int length) {
    this(id, length, null);
  }

  @JsonCreator
  public ChunkRef(@JsonProperty("id") ChunkId id, @JsonProperty("length") int length, @JsonProperty("addr") Long addr) {
    this.id = Objects.requireNonNull(id, "chunk id");
    if (length < 0) {
      throw new IllegalArgumentException("chunk length must be >= 0, was " + length);
    }
    this.length = length;
    this.addr = addr == null || addr < 0 ? null : addr;
  }

  /** The memory address of the chunk's first byte, or null when it is not known memory. */
  @JsonProperty("addr")
  public Long addr() {
    return addr;
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
    return o instanceof ChunkRef && ((ChunkRef) o).id.equals(id) && ((ChunkRef) o).length == length
        && Objects.equals(((ChunkRef) o).addr, addr);
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
