package org.cairn.cli.context;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.cairn.client.store.StoreOptions;
import org.cairn.core.chunk.Chunking;
import org.cairn.core.compress.Compressor;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.manifest.Manifest;

/**
 * A store the agent runs in the background ({@code cairn store --async}), as the spool keeps it: the private copy
 * {@code image}, the {@code options} it is stored with, and the app key's {@code sealing}, which is found in
 * {@code keyDir} when the store runs (the spool holds no key). It is written as versioned JSON ({@link #toJson}) so
 * an agent that restarts resumes it as it was queued; a record of another version, or one that does not parse, is
 * refused ({@link Refused}) rather than guessed at.
 *
 * @param version {@link #VERSION} for a record made here
 * @param options how to store it, sealed by {@link ChunkCrypto#PLAIN} until {@link #sealedWith} is given the key's
 */
public record QueuedStore(int version, Path image, Path keyDir, Encryption sealing, StoreOptions options) {
  /** The version of the JSON this cairn writes and the only one it reads. */
  public static final int VERSION = 1;

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public QueuedStore {
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(keyDir, "keyDir");
    Objects.requireNonNull(sealing, "sealing");
    Objects.requireNonNull(options, "options");
    options = options.withCrypto(ChunkCrypto.PLAIN); // a key never goes to the spool
  }

  /** A store of {@code image} as {@code options} say, sealed by {@code sealing} with the app key in {@code keyDir}. */
  public static QueuedStore of(Path image, Path keyDir, Encryption sealing, StoreOptions options) {
    return new QueuedStore(VERSION, image, keyDir, sealing, options);
  }

  public String app() {
    return options.app();
  }

  public String node() {
    return options.node();
  }

  /** This store of another copy of the image (the spool's). */
  public QueuedStore withImage(Path image) {
    return new QueuedStore(version, image, keyDir, sealing, options);
  }

  /** The options to store with, sealed by {@code crypto} (the app key's for {@link #sealing}, or plaintext). */
  public StoreOptions sealedWith(ChunkCrypto crypto) {
    if (crypto.encryption() != sealing) {
      throw new IllegalArgumentException("the store of " + app() + "." + node() + " is sealed " + sealing.spec() + ", not "
          + crypto.encryption().spec());
    }
    return options.withCrypto(crypto);
  }

  /** A spooled record this cairn does not run: another version, or not a queued store at all; the message says which. */
  public static final class Refused extends IOException {
    Refused(String message) {
      super(message);
    }
  }

  /** The JSON the spool keeps (UTF-8). */
  public byte[] toJson() {
    StoreOptions o = options;
    Manifest.SetPart set = o.set();
    Form f = new Form(version, o.app(), o.node(), image.toString(), keyDir.toString(), sealing.spec(), o.step(), o.redundancy().spec(),
        o.compressor().spec(), o.chunkSize(), o.chunking().spec(), o.delta(), o.threads(), o.placement(), o.kind(), o.clientId(),
        o.writeMode(), o.probeAfter() == null ? null : o.probeAfter().toMillis(), o.commitTimeout().toMillis(), o.hostWait().toMillis(),
        set == null ? null : new SetForm(set.name(), set.part(), set.parts()));
    try {
      return JSON.writeValueAsBytes(f);
    } catch (JacksonException e) {
      throw new IllegalStateException("a queued store does not write as JSON", e);
    }
  }

  /**
   * The store {@code json} describes.
   *
   * @throws Refused if it is of another version, is not JSON, or names values no store takes (one line saying what)
   */
  public static QueuedStore fromJson(byte[] json) throws Refused {
    JsonNode tree;
    try {
      tree = JSON.readTree(json);
    } catch (IOException e) {
      throw new Refused("not JSON: " + firstLine(e.getMessage()));
    }
    if (tree == null || !tree.isObject() || !tree.path("version").isInt()) {
      throw new Refused("not a queued store: it has no version");
    }
    int version = tree.get("version").intValue();
    if (version != VERSION) {
      throw new Refused("a queued store of version " + version + " (this cairn reads version " + VERSION + " only)");
    }
    Form f;
    try {
      f = JSON.treeToValue(tree, Form.class);
    } catch (IOException e) {
      throw new Refused("a malformed queued store: " + firstLine(e instanceof JacksonException j ? j.getOriginalMessage() : e.getMessage()));
    }
    try {
      return f.store();
    } catch (RuntimeException e) {
      throw new Refused("a queued store with a bad value: " + firstLine(e.getMessage()));
    }
  }

  private static String firstLine(String s) {
    return s == null ? "" : s.lines().findFirst().orElse("");
  }

  /** The spooled form: every field spelled as the flags spell it; durations in milliseconds (probe null: never). */
  record Form(int version, String app, String node, String image, String keyDir, String encryption, long step, String redundancy,
      String compression, int chunkSize, String chunking, boolean delta, int threads, String placement, String kind, String clientId,
      String write, Long probeAfterMillis, long commitTimeoutMillis, long hostWaitMillis, SetForm set) {

    QueuedStore store() {
      Manifest.SetPart part = set == null ? null : new Manifest.SetPart(set.name(), set.part(), set.parts());
      StoreOptions o = new StoreOptions(app, node, step, Redundancy.parse(redundancy), Compressor.parse(compression), chunkSize, threads,
          placement, kind, clientId, false, probeAfterMillis == null ? null : Duration.ofMillis(probeAfterMillis),
          Duration.ofMillis(commitTimeoutMillis), ChunkCrypto.PLAIN, Chunking.parse(chunking), part, false, delta,
          Duration.ofMillis(hostWaitMillis)).withWriteMode(write);
      return new QueuedStore(version, Path.of(Objects.requireNonNull(image, "image")), Path.of(Objects.requireNonNull(keyDir, "keyDir")),
          Encryption.parse(encryption), o);
    }
  }

  /** A part of a checkpoint set, spooled. */
  record SetForm(String name, int part, int parts) {}
}
