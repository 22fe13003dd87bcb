package org.cairn.tracker.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Optional;
import org.cairn.core.security.GridToken;

/**
 * The tracker's side of who is calling: the operator's token (given with {@code --token-file}, or
 * made at first start in {@code DATA/admin.token}), the issued credentials of {@link TokenStore},
 * and the grid's data-plane key ({@code DATA/dataplane.key}, made at first start: what peers and
 * clients prove to each other on the data plane; it is handed to registered peers and to client
 * credentials, never the operator's token), and the ticket signing key ({@code DATA/ticket.key},
 * made at first start; peers get its public half at registration).
 */
public final class Credentials {
  private final GridToken operator;
  private final TokenStore tokens;
  private final GridToken dataKey;
  private final Clock clock;
  private final TicketIssuer tickets;

  /** With a ticket key of its own that lasts as long as this object (tests). */
  public Credentials(GridToken operator, TokenStore tokens, GridToken dataKey, Clock clock) {
    this(operator, tokens, dataKey, clock, org.cairn.core.security.TicketSigner.generate());
  }

  public Credentials(GridToken operator, TokenStore tokens, GridToken dataKey, Clock clock,
      org.cairn.core.security.TicketSigner ticketKey) {
    this.operator = operator;
    this.tokens = tokens;
    this.dataKey = dataKey;
    this.clock = clock;
    this.tickets = new TicketIssuer(ticketKey, clock);
  }

  /**
   * The credentials of the tracker whose data directory is {@code data}: {@code operator} if given
   * (a grid that set its own admin token), else {@code DATA/admin.token}, created if missing.
   */
  public static Credentials open(Path data, GridToken operator, Clock clock) throws IOException {
    Files.createDirectories(data);
    TokenStore store = new TokenStore(data);
    GridToken admin = operator != null ? operator : GridToken.readFile(adminTokenFile(data, store, clock));
    GridToken key = GridToken.of(secretFile(data.resolve("dataplane.key"), GridToken.generate()));
    String ticketKey = secretFile(data.resolve("ticket.key"), org.cairn.core.security.TicketSigner.generate().secret());
    secretFile(data.resolve(CATALOG_KEY), org.cairn.core.crypto.CatalogKey.generatePrivate());
    org.cairn.core.security.TicketSigner signer;
    try {
      signer = org.cairn.core.security.TicketSigner.parse(ticketKey);
    } catch (IllegalArgumentException e) {
      throw new IOException(data.resolve("ticket.key") + " is not a ticket key (" + e.getMessage() + "); restore it from a backup,"
          + " or delete it to make a new one (peers then learn theirs when they next register)", e);
    }
    return new Credentials(admin, store, key, clock, signer);
  }

  /**
   * The grid's catalog key (private, {@link org.cairn.core.crypto.CatalogKey}) in the data directory:
   * what opens the catalog records on the grid. Keep a copy off the grid: recovery from the peers needs it.
   */
  public static final String CATALOG_KEY = "catalog.key";

  /** The catalog key of the tracker whose data directory is {@code data} (made by {@link #open} if missing). */
  public static String catalogKey(Path data) throws IOException {
    return secretFile(data.resolve(CATALOG_KEY), org.cairn.core.crypto.CatalogKey.generatePrivate());
  }

  /** {@code DATA/admin.token}: read if there, else a new admin credential written there (0600). */
  public static Path adminTokenFile(Path data, TokenStore store, Clock clock) throws IOException {
    Path f = data.resolve("admin.token");
    if (!Files.exists(f)) {
      secretFile(f, store.issue(Role.ADMIN, null, false, null, null, null, "made at the tracker's first start", clock.millis()));
    }
    return f;
  }

  /**
   * Puts the CA pin on {@code DATA/admin.token} (same secret, {@code #sha256:PIN} appended), so the
   * operator's token works with an {@code https://} tracker URL as the tokens {@code token create}
   * prints do. A grid that gave {@code --token-file} keeps its file as it is.
   */
  public static void pinAdminToken(Path data, String pin) throws IOException {
    Path f = data.resolve("admin.token");
    if (!Files.exists(f)) {
      return;
    }
    GridToken t = GridToken.readFile(f);
    if (t.caPin().filter(pin::equals).isPresent()) {
      return;
    }
    Path tmp = Files.createTempFile(data, "admin.token", ".tmp", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      Files.writeString(tmp, t.withCaPin(pin) + "\n", StandardCharsets.UTF_8);
      Files.move(tmp, f, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** The first line of {@code f}, or {@code fresh} written to a new file of mode 0600 if there is none. */
  private static String secretFile(Path f, String fresh) throws IOException {
    if (!Files.exists(f)) {
      try {
        Files.createFile(f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(f, fresh + "\n", StandardCharsets.UTF_8);
        return fresh;
      } catch (FileAlreadyExistsException e) {
        // another start won the race: use what it wrote
      }
    }
    return Files.readString(f, StandardCharsets.UTF_8).lines().findFirst().orElse("").trim();
  }

  /** The principal of an {@code Authorization} header, if it names one. */
  public Optional<Principal> authenticate(String authorization) {
    if (operator.matchesAuthorization(authorization)) {
      return Optional.of(Principal.OPERATOR);
    }
    String presented = bearer(authorization);
    return presented == null ? Optional.empty() : tokens.authenticate(presented, clock.millis());
  }

  /** Why an {@code Authorization} header was refused (for the 401): missing, unknown, revoked, expired. */
  public String refusal(String authorization) {
    String presented = bearer(authorization);
    return presented == null ? "missing bearer token (send Authorization: Bearer <token>)" : tokens.refusal(presented, clock.millis());
  }

  public TokenStore tokens() {
    return tokens;
  }

  /** Signs data-plane tickets. */
  public TicketIssuer tickets() {
    return tickets;
  }

  /** The grid's data-plane key. */
  public GridToken dataKey() {
    return dataKey;
  }

  private static String bearer(String header) {
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    return header.substring(7).trim();
  }
}
