package org.cairn.tracker.auth;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Issued credentials, one file per token under {@code DATA/tokens/ID.json} (mode 0600), holding
 * only the SHA-256 of the secret. Files, not the tracker's RocksDB, so {@code cairn-tracker token
 * create|list|revoke} work while the tracker runs (RocksDB allows one process); the tracker reads a
 * token's file when it first sees it and again whenever the file changes.
 *
 * <p>A token's text is {@code ctk1_<16 hex id>_<43 base64url secret>}: the id finds the record, the
 * secret is compared by hash in constant time.
 */
public final class TokenStore {
  public static final String PREFIX = "ctk1_";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SecureRandom RANDOM = new SecureRandom();
  /** A token's id (compiled once: every request is authenticated). */
  private static final java.util.regex.Pattern ID = java.util.regex.Pattern.compile("[0-9a-f]{16}");

  private final Path dir;
  private final ConcurrentHashMap<String, Cached> cache = new ConcurrentHashMap<>();
  /** Per enrollment token taken from, its rounds of uses (a few tokens per grid: kept while the tracker runs). */
  private final ConcurrentHashMap<String, UseRounds> rounds = new ConcurrentHashMap<>();

  private record Cached(TokenRecord record, long modified) {}

  public TokenStore(Path dataDir) {
    this.dir = dataDir.resolve("tokens");
  }

  /**
   * {@code uses} asking a donor token with no limit on its registrations: an explicit choice, since a donor
   * token's default is {@link #DEFAULT_DONOR_USES} (each registration is a new peer, and a leaked enrollment
   * token with unlimited uses would let a stranger join as many peers as it likes).
   */
  public static final int UNLIMITED_USES = -1;
  /** Registrations a donor token allows when none is asked for: one donor, one peer. */
  public static final int DEFAULT_DONOR_USES = 1;

  /**
   * Why a token of this kind may not be issued, or null: the rules {@code token create} and
   * {@code POST /api/v1/tokens} share. {@code scoped}: it names apps or is read-only.
   */
  public static String refusal(Role role, boolean scoped, Integer uses) {
    if (role == Role.PEER) {
      return "peer credentials are issued at registration; make a donor token";
    }
    if (scoped && role != Role.CLIENT) {
      return "--apps and --read-only apply to client tokens";
    }
    if (uses != null && (role != Role.DONOR || uses < 1 && uses != UNLIMITED_USES)) {
      return "--uses N (N >= 1, or unlimited) applies to donor tokens";
    }
    return null;
  }

  /**
   * A new credential; returns its full text (the only time the secret exists outside the caller). A donor token's
   * {@code uses} defaults to {@link #DEFAULT_DONOR_USES}; {@link #UNLIMITED_USES} stores none (no limit). Not behind
   * the store's lock: a new record (a fresh random id) rewrites nothing, so registrations' credentials are written
   * concurrently (in a tracker group, their log entries are committed together).
   */
  public String issue(Role role, List<String> apps, boolean readOnly, Long expiresMillis, Integer uses, String peer,
      String note, long nowMillis) throws IOException {
    if (role == Role.DONOR && uses == null) {
      uses = DEFAULT_DONOR_USES;
    } else if (uses != null && uses == UNLIMITED_USES) {
      uses = null;
    }
    byte[] idBytes = new byte[8];
    byte[] secret = new byte[32];
    RANDOM.nextBytes(idBytes);
    RANDOM.nextBytes(secret);
    String id = HexFormat.of().formatHex(idBytes);
    String secretText = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    write(new TokenRecord(id, role.spec(), apps == null || apps.isEmpty() ? null : List.copyOf(apps), readOnly, expiresMillis, uses,
        peer, nowMillis, false, sha256(secretText), note));
    return PREFIX + id + "_" + secretText;
  }

  /** The principal a presented token names, if it is one of ours, unrevoked and unexpired. */
  public Optional<Principal> authenticate(String presented, long nowMillis) {
    TokenRecord r = match(presented);
    if (r == null || r.revoked() || r.expires() != null && nowMillis >= r.expires()) {
      return Optional.empty();
    }
    return Optional.of(new Principal(r.id(), Role.parse(r.role()), r.apps(), r.readOnly(), r.peer()));
  }

  /** Why a presented token is refused: unknown, revoked or expired (for the 401's message). */
  public String refusal(String presented, long nowMillis) {
    TokenRecord r = match(presented);
    if (r == null) {
      return "unknown bearer token (neither the operator's nor one this tracker issued)";
    }
    return r.revoked() ? "bearer token " + r.id() + " was revoked" : "bearer token " + r.id() + " expired";
  }

  /**
   * Takes one use of an enrollment token (a registration). False when none is left. Registrations that arrive
   * together are written as one round ({@link UseRounds}): one write of the count for all of them.
   */
  public boolean takeUse(String tokenId) throws IOException {
    return rounds.computeIfAbsent(tokenId, id -> new UseRounds(wanted -> spendUses(id, wanted))).take();
  }

  /**
   * One round of {@link #takeUse}: up to {@code wanted} uses of {@code tokenId} as its record says now, written at
   * once; how many were taken. Behind the store's lock, as every rewrite of a record is (a revocation in between
   * must not be overwritten).
   */
  synchronized int spendUses(String tokenId, int wanted) throws IOException {
    TokenRecord r = load(tokenId);
    if (r == null) {
      return 0;
    }
    if (r.uses() == null) {
      return wanted;
    }
    int taken = Math.min(wanted, Math.max(0, r.uses()));
    if (taken > 0) {
      write(r.withUses(r.uses() - taken));
    }
    return taken;
  }

  /** Revokes a token; false if there is none with that id. */
  public synchronized boolean revoke(String tokenId) throws IOException {
    TokenRecord r = load(tokenId);
    if (r == null) {
      return false;
    }
    write(r.revoke());
    return true;
  }

  /**
   * Revokes every unrevoked peer credential issued to peer {@code peer} (a peer that proved its key to
   * be given a new one: the one it lost must not outlive it). Reads every token: for a rare path.
   */
  public synchronized int revokePeerCredentials(String peer) throws IOException {
    int n = 0;
    for (TokenRecord r : list()) {
      if (Role.PEER.spec().equals(r.role()) && peer.equals(r.peer()) && !r.revoked() && revoke(r.id())) {
        n++;
      }
    }
    return n;
  }

  /** Every issued token, secrets' hashes left out, oldest first. */
  public List<TokenRecord> list() throws IOException {
    List<TokenRecord> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (var files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted()::iterator) {
        TokenRecord r = load(f.getFileName().toString().replace(".json", ""));
        if (r != null) {
          out.add(r.shown());
        }
      }
    }
    out.sort(java.util.Comparator.comparingLong(TokenRecord::created));
    return out;
  }

  private TokenRecord match(String presented) {
    if (presented == null || !presented.startsWith(PREFIX)) {
      return null;
    }
    String rest = presented.substring(PREFIX.length());
    int sep = rest.indexOf('_');
    if (sep != 16) {
      return null;
    }
    TokenRecord r;
    try {
      r = load(rest.substring(0, 16));
    } catch (IOException e) {
      return null;
    }
    if (r == null || r.hash() == null) {
      return null;
    }
    byte[] want = HexFormat.of().parseHex(r.hash());
    byte[] got = HexFormat.of().parseHex(sha256(rest.substring(sep + 1)));
    return MessageDigest.isEqual(want, got) ? r : null;
  }

  /** The record of {@code id} (from the cache while its file is unchanged), or null. */
  TokenRecord load(String id) throws IOException {
    if (!ID.matcher(id).matches()) {
      return null;
    }
    Path f = dir.resolve(id + ".json");
    long modified;
    try {
      modified = Files.getLastModifiedTime(f).toMillis();
    } catch (NoSuchFileException e) {
      cache.remove(id);
      return null;
    }
    Cached c = cache.get(id);
    if (c != null && c.modified() == modified) {
      return c.record();
    }
    TokenRecord r = JSON.readValue(Files.readString(f, StandardCharsets.UTF_8), TokenRecord.class);
    cache.put(id, new Cached(r, modified));
    return r;
  }

  /** How a tracker group writes a file every member must hold: through its log, on every member. */
  public interface SharedFiles {
    void write(String relative, byte[] content) throws IOException;
  }

  private volatile SharedFiles shared;

  /** From now on token files are written on every member of a tracker group, through {@code files}. */
  public void shareThrough(SharedFiles files) {
    this.shared = files;
  }

  private void write(TokenRecord r) throws IOException {
    SharedFiles files = shared;
    if (files != null) {
      files.write("tokens/" + r.id() + ".json",
          (JSON.writerWithDefaultPrettyPrinter().writeValueAsString(r) + "\n").getBytes(StandardCharsets.UTF_8));
      cache.remove(r.id());
      return;
    }
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    Path tmp = Files.createTempFile(dir, r.id(), ".tmp", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      Files.writeString(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(r) + "\n", StandardCharsets.UTF_8);
      try {
        Files.move(tmp, dir.resolve(r.id() + ".json"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, dir.resolve(r.id() + ".json"), StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
    cache.remove(r.id());
  }

  static String sha256(String secret) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java platform", e);
    }
  }
}
