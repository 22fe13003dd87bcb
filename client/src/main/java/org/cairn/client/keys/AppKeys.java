package org.cairn.client.keys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.cairn.core.crypto.AppKey;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.manifest.Manifest;

/*
 * The client's app keys: one Cairn key file per app, <dir>/<app>.json, mode 0600 in a 0700
 * directory (default ~/.config/cairn/keys; CAIRN_KEY_DIR or --key-dir to move it). Files are
 * written whole or not at all (a temporary file, synced, then linked or renamed into place); a new
 * key is linked in, so two stores creating the same app's first key at once agree on the one that
 * landed. The tracker and the donors never see these files.
 */
public final class AppKeys {
  /** What a lost key means, said wherever a key is made. */
  public static final String LOSS_WARNING = "without this key file the app's encrypted checkpoints cannot be restored by anyone; "
      + "keep a copy somewhere safe (cairn key export)";

  private final Path dir;

  public AppKeys(Path dir) {
    this.dir = dir.toAbsolutePath();
  }

  /** The key directory: {@code flag} if given, else $CAIRN_KEY_DIR, else ~/.config/cairn/keys. */
  public static AppKeys locate(Path flag) {
    if (flag != null) {
      return new AppKeys(flag);
    }
    String env = System.getenv("CAIRN_KEY_DIR");
    if (env != null && !env.isBlank()) {
      return new AppKeys(Path.of(env));
    }
    return new AppKeys(defaultDir());
  }

  /** ~/.config/cairn/keys: where keys are when neither a flag nor $CAIRN_KEY_DIR says. */
  public static Path defaultDir() {
    return Path.of(System.getProperty("user.home"), ".config", "cairn", "keys");
  }

  public Path dir() {
    return dir;
  }

  /** Where app's key file is (whether or not it exists). */
  public Path path(String app) {
    if (app == null || !app.matches("[A-Za-z0-9._+-]{1,128}") || app.startsWith(".")) {
      throw new IllegalArgumentException("app must be 1-128 letters, digits, '.', '_', '+' or '-' (not starting with '.'), was '"
          + app + "'");
    }
    return dir.resolve(app + ".json");
  }

  /** The app's key, if its file exists. */
  public Optional<AppKey> find(String app) throws IOException {
    Path p = path(app);
    if (!Files.exists(p)) {
      return Optional.empty();
    }
    AppKey key = AppKey.fromJson(Files.readString(p, StandardCharsets.UTF_8), p.toString());
    if (!key.app().equals(app)) {
      throw new IOException(p + " holds the key of app " + key.app() + ", not " + app);
    }
    return Optional.of(key);
  }

  /** A key made here, and whether it was new. */
  public record Created(AppKey key, Path path, boolean created) {}

  /** The app's key, made and saved first if it has none yet (the first store of an app). */
  public Created findOrCreate(String app, Instant now) throws IOException {
    Optional<AppKey> existing = find(app);
    if (existing.isPresent()) {
      return new Created(existing.get(), path(app), false);
    }
    try {
      return new Created(create(app, now), path(app), true);
    } catch (FileAlreadyExistsException e) {
      // another store made it meanwhile: use that one, never a second key
      return new Created(find(app).orElseThrow(() -> new IOException(path(app) + " vanished while being created")), path(app), false);
    }
  }

  /**
   * Makes and saves a new key for app.
   *
   * @throws FileAlreadyExistsException if the app already has a key (never overwritten)
   */
  public AppKey create(String app, Instant now) throws IOException {
    AppKey key = AppKey.generate(app, now);
    PrivateDirs.ensure(dir);
    PrivateDirs.writeSecret(path(app), key.toJson().getBytes(StandardCharsets.UTF_8), false); // no key is ever replaced here
    return key;
  }

  /**
   * Saves {@code key} as app's key. An existing different key is replaced only with {@code force};
   * the same key again changes nothing.
   *
   * @return true if the file was written
   */
  public boolean importKey(String app, AppKey key, boolean force) throws IOException {
    if (!key.app().equals(app)) {
      throw new IOException("the key file is for app " + key.app() + ", not " + app);
    }
    Optional<AppKey> existing = find(app);
    if (existing.isPresent()) {
      if (existing.get().fingerprint().equals(key.fingerprint())) {
        return false;
      }
      if (!force) {
        throw new FileAlreadyExistsException(path(app).toString(), null, "app " + app + " already has another key ("
            + existing.get().fingerprint() + ") there; the versions stored with it need it. Export it first, then use --force to replace it");
      }
    }
    PrivateDirs.ensure(dir);
    PrivateDirs.writeSecret(path(app), key.toJson().getBytes(StandardCharsets.UTF_8), true);
    return true;
  }

  /** The apps with a key here, by name. */
  public List<String> apps() throws IOException {
    List<String> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (Stream<Path> files = Files.list(dir)) {
      files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json") && !n.startsWith("."))
          .map(n -> n.substring(0, n.length() - ".json".length())).sorted().forEach(out::add);
    }
    return out;
  }

  /**
   * The sealing to read {@code m} with: PLAIN for a plaintext version of an app with no key here, else
   * this directory's key of the version's app, checked against the fingerprint the version recorded. A
   * version without encryption of an app whose key is here is refused (a lying tracker or a man in the
   * middle could otherwise strip the encryption and hand us its own plaintext chunks).
   *
   * @throws IOException saying which key the version needs, which one is here, and how to import it
   */
  public ChunkCrypto forVersion(Manifest m) throws IOException {
    if (!m.encrypted()) {
      // the manifest comes from the tracker: one that drops "encryption" for an app whose key is here
      // would have us read (and trust) plaintext anyone could have written
      if (Files.exists(path(m.app()))) {
        throw new IOException("version " + name(m) + " claims to be unencrypted, but app " + m.app() + " has a key in " + dir
            + ": refused as a possible downgrade (to read a version really stored without encryption, use a --key-dir"
            + " without this app's key)");
      }
      return ChunkCrypto.PLAIN;
    }
    Encryption e;
    try {
      e = Encryption.parse(m.encryption());
    } catch (IllegalArgumentException ex) {
      throw new IOException("version " + name(m) + " uses encryption '" + m.encryption() + "', unknown to this build; upgrade Cairn", ex);
    }
    Path p = path(m.app());
    Optional<AppKey> key = find(m.app());
    if (key.isEmpty()) {
      throw new IOException("version " + name(m) + " is encrypted with key " + m.keyId() + " and there is no key for app " + m.app()
          + " in " + dir + "; import it with `cairn key import --app " + m.app() + " KEYFILE`");
    }
    if (!key.get().fingerprint().equals(m.keyId())) {
      throw new IOException("version " + name(m) + " was encrypted with key " + m.keyId() + "; the key in " + p + " is "
          + key.get().fingerprint() + " (import the right one with `cairn key import --app " + m.app() + " KEYFILE --force`)");
    }
    return key.get().crypto(e);
  }

  private static String name(Manifest m) {
    return m.app() + "/" + m.node() + " step " + m.step();
  }
}
