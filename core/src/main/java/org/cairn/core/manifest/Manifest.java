package org.cairn.core.manifest;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Objects;
import org.cairn.core.CorruptDataException;

/**
 * The chunk map of one version of one checkpoint (stdchk's A.N.T naming: app, node, step) and how
 * it was stored. Immutable. Unknown JSON fields are ignored so older readers accept newer manifests;
 * a schema version newer than this build's major is refused.
 *
 * <p>Schema 2 adds {@code encryption} (aes-gcm, aes-siv) and {@code keyId}, the fingerprint of the
 * app key the chunks were sealed with (never the key). Plaintext versions are still written as
 * schema 1, so older readers keep reading them; an encrypted version is refused by them with
 * "upgrade Cairn" rather than misread.
 *
 * <p>Schema 3 adds {@code chunking} ({@code aligned} or {@code cdc}): chunks of any length up to
 * {@code chunkSize}, cut at a format's area boundaries or by content. Fixed-size versions keep the
 * lower schema (every chunk but the last exactly {@code chunkSize}).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class Manifest {
  public static final int SCHEMA_VERSION = 3;
  /** The schema of versions whose chunks vary in length ({@link #chunking()} not fixed). */
  public static final int SCHEMA_VARIABLE_CHUNKS = 3;
  /** The schema of encrypted versions with fixed-size chunks. */
  public static final int SCHEMA_ENCRYPTED = 2;
  /** The schema of plaintext versions (no encryption fields). */
  public static final int SCHEMA_PLAINTEXT = 1;

  private static final ObjectMapper JSON = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final int schemaVersion;
  private final String app;
  private final String node;
  private final long step;
  private final long size;
  private final int chunkSize;
  private final String redundancy;
  private final String compression;
  private final String kind;
  private final long createdAt;
  private final String clientHost;
  private final List<ChunkRef> chunks;
  private final String encryption;
  private final String keyId;
  private final String chunking;
  private final SetPart set;

  /**
   * The part of a checkpoint set this manifest is (DejaVu's epoch-coordinated checkpoints: the
   * parts of one computation written on several hosts): set {@code name}, part {@code part} of
   * {@code parts} (0-based). The tracker makes the set a version only when all parts are committed.
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record SetPart(String name, int part, int parts) {
    public static final int MAX_PARTS = 4096;

    public SetPart {
      Objects.requireNonNull(name, "set name");
      if (parts < 1 || parts > MAX_PARTS) {
        throw new IllegalArgumentException("a set has 1.." + MAX_PARTS + " parts, not " + parts);
      }
      if (part < 0 || part >= parts) {
        throw new IllegalArgumentException("part " + part + " is outside 0.." + (parts - 1));
      }
    }
  }

  /** A plaintext manifest (schema 1's fields). */
  public Manifest(int schemaVersion, String app, String node, long step, long size, int chunkSize, String redundancy,
      String compression, String kind, long createdAt, String clientHost, List<ChunkRef> chunks) {
    this(schemaVersion, app, node, step, size, chunkSize, redundancy, compression, kind, createdAt, clientHost, chunks, null, null, null, null);
  }

  @JsonCreator
  public Manifest(
      @JsonProperty("schemaVersion") int schemaVersion,
      @JsonProperty("app") String app,
      @JsonProperty("node") String node,
      @JsonProperty("step") long step,
      @JsonProperty("size") long size,
      @JsonProperty("chunkSize") int chunkSize,
      @JsonProperty("redundancy") String redundancy,
      @JsonProperty("compression") String compression,
      @JsonProperty("kind") String kind,
      @JsonProperty("createdAt") long createdAt,
      @JsonProperty("clientHost") String clientHost,
      @JsonProperty("chunks") List<ChunkRef> chunks,
      @JsonProperty("encryption") String encryption,
      @JsonProperty("keyId") String keyId,
      @JsonProperty("chunking") String chunking,
      @JsonProperty("set") SetPart set) {
    this.schemaVersion = schemaVersion;
    this.app = app;
    this.node = node;
    this.step = step;
    this.size = size;
    this.chunkSize = chunkSize;
    this.redundancy = redundancy;
    this.compression = compression;
    this.kind = kind == null ? "file" : kind;
    this.createdAt = createdAt;
    this.clientHost = clientHost;
    this.chunks = chunks == null ? List.of() : List.copyOf(chunks);
    this.encryption = encryption == null || encryption.equals("none") ? null : encryption;
    this.keyId = keyId;
    this.chunking = chunking == null || chunking.equals("fixed") ? null : chunking;
    this.set = set;
  }

  /** A new manifest of the current schema. */
  public static Manifest of(String app, String node, long step, int chunkSize, String redundancy, String compression,
      String kind, long createdAtMillis, String clientHost, List<ChunkRef> chunks) {
    return of(app, node, step, chunkSize, redundancy, compression, kind, createdAtMillis, clientHost, chunks, null, null);
  }

  /**
   * A new manifest; {@code encryption} null or "none" for plaintext (schema 1), else the encryption
   * spec and the app key's fingerprint {@code keyId} (schema 2).
   */
  public static Manifest of(String app, String node, long step, int chunkSize, String redundancy, String compression,
      String kind, long createdAtMillis, String clientHost, List<ChunkRef> chunks, String encryption, String keyId) {
    long size = 0;
    for (ChunkRef c : chunks) {
      size += c.length();
    }
    boolean sealed = encryption != null && !encryption.equals("none");
    if (sealed && (keyId == null || keyId.isBlank())) {
      throw new IllegalArgumentException("an encrypted manifest names its key's fingerprint");
    }
    return new Manifest(sealed ? SCHEMA_ENCRYPTED : SCHEMA_PLAINTEXT, app, node, step, size, chunkSize, redundancy, compression,
        kind, createdAtMillis, clientHost, chunks, sealed ? encryption : null, sealed ? keyId : null, null, null);
  }

  /**
   * This manifest with its chunks cut by {@code chunking} ({@code fixed}, {@code aligned} or
   * {@code cdc}); anything but fixed raises the schema to {@link #SCHEMA_VARIABLE_CHUNKS}.
   */
  public Manifest withChunking(String chunking) {
    boolean variable = chunking != null && !chunking.equals("fixed");
    return new Manifest(variable ? Math.max(schemaVersion, SCHEMA_VARIABLE_CHUNKS) : schemaVersion, app, node, step, size, chunkSize,
        redundancy, compression, kind, createdAt, clientHost, chunks, encryption, keyId, variable ? chunking : null, set);
  }

  /** This manifest as part {@code part} of {@code parts} of checkpoint set {@code name} (null: a plain version). */
  public Manifest withSet(SetPart set) {
    return new Manifest(schemaVersion, app, node, step, size, chunkSize, redundancy, compression, kind, createdAt, clientHost, chunks,
        encryption, keyId, chunking, set);
  }

  /** This manifest as step {@code step} (the tracker numbers versions at the commit). */
  public Manifest withStep(long step) {
    return new Manifest(schemaVersion, app, node, step, size, chunkSize, redundancy, compression, kind, createdAt, clientHost,
        chunks, encryption, keyId, chunking, set);
  }

  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("manifest does not serialise", e);
    }
  }

  /**
   * Parses and checks a manifest: schema version, sizes adding up, chunk lengths within the chunk size.
   *
   * @throws CorruptDataException naming what is wrong
   */
  public static Manifest fromJson(String json) throws CorruptDataException {
    Manifest m;
    try {
      m = JSON.readValue(json, Manifest.class);
    } catch (JsonProcessingException e) {
      throw new CorruptDataException("manifest is invalid: " + e.getOriginalMessage(), e);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new CorruptDataException("manifest is invalid: " + e.getMessage(), e);
    }
    m.validate();
    return m;
  }

  /**
   * Checks what {@link #fromJson} checks, for a manifest that arrived by another route (a typed
   * message): the schema this build reads, lengths within the chunk size, sizes adding up.
   *
   * @throws CorruptDataException naming what is wrong
   */
  public void requireValid() throws CorruptDataException {
    validate();
  }

  private void validate() throws CorruptDataException {
    if (schemaVersion < 1 || schemaVersion > SCHEMA_VERSION) {
      throw new CorruptDataException("manifest schema version " + schemaVersion + " is not supported (this build reads 1.."
          + SCHEMA_VERSION + "); upgrade Cairn");
    }
    long total = 0;
    for (int i = 0; i < chunks.size(); i++) {
      int len = chunks.get(i).length();
      if (len > chunkSize || (len < chunkSize && i < chunks.size() - 1 && chunking == null) || (len == 0 && chunking != null)) {
        throw new CorruptDataException("manifest chunk " + i + " has length " + len + " with chunk size " + chunkSize);
      }
      total += len;
    }
    if ((encryption == null) != (keyId == null)) {
      throw new CorruptDataException("manifest names " + (encryption == null ? "a key but no encryption" : "an encryption but no key"));
    }
    if (chunking != null && schemaVersion < SCHEMA_VARIABLE_CHUNKS) {
      throw new CorruptDataException("manifest has chunking " + chunking + " under schema " + schemaVersion);
    }
    if (total != size) {
      throw new CorruptDataException("manifest size " + size + " does not match its chunks' total " + total);
    }
  }

  @JsonProperty public int schemaVersion() { return schemaVersion; }
  @JsonProperty public String app() { return app; }
  @JsonProperty public String node() { return node; }
  @JsonProperty public long step() { return step; }
  @JsonProperty public long size() { return size; }
  @JsonProperty public int chunkSize() { return chunkSize; }
  @JsonProperty public String redundancy() { return redundancy; }
  @JsonProperty public String compression() { return compression; }
  /** {@code file} or {@code dir} (a tar image of a directory, restored as a tree). */
  @JsonProperty public String kind() { return kind; }
  /** Milliseconds since the epoch. */
  @JsonProperty public long createdAt() { return createdAt; }
  @JsonProperty public String clientHost() { return clientHost; }
  @JsonProperty public List<ChunkRef> chunks() { return chunks; }
  /** {@code aes-gcm} or {@code aes-siv}; null for a plaintext version. */
  @JsonProperty public String encryption() { return encryption; }
  /** The fingerprint of the app key the chunks were sealed with; null for a plaintext version. */
  @JsonProperty public String keyId() { return keyId; }
  /** {@code aligned} or {@code cdc}; null for fixed-size chunks. */
  @JsonProperty public String chunking() { return chunking; }
  /** The checkpoint set this manifest is a part of; null for a plain version. */
  @JsonProperty public SetPart set() { return set; }

  /** True if the chunks are sealed with an app key. */
  public boolean encrypted() {
    return encryption != null;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Manifest)) {
      return false;
    }
    Manifest m = (Manifest) o;
    return schemaVersion == m.schemaVersion && step == m.step && size == m.size && chunkSize == m.chunkSize
        && createdAt == m.createdAt && Objects.equals(app, m.app) && Objects.equals(node, m.node)
        && Objects.equals(redundancy, m.redundancy) && Objects.equals(compression, m.compression)
        && Objects.equals(kind, m.kind) && Objects.equals(clientHost, m.clientHost) && chunks.equals(m.chunks)
        && Objects.equals(encryption, m.encryption) && Objects.equals(keyId, m.keyId)
        && Objects.equals(chunking, m.chunking) && Objects.equals(set, m.set);
  }

  @Override
  public int hashCode() {
    return Objects.hash(app, node, step, size, createdAt, chunks);
  }

  @Override
  public String toString() {
    return app + "." + node + "." + step + " (" + size + " bytes, " + chunks.size() + " chunks, " + redundancy + ")";
  }
}
