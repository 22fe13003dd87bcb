package org.cairn.peer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.cairn.core.security.GridToken;

/**
 * Secrets a registration gives a peer, kept in its data directory (mode 0600, written atomically):
 * {@code peer.credential}, the credential the tracker issued when the peer joined with an
 * enrollment (donor) token — with it the peer heartbeats and reports as itself and rejoins after a
 * restart without the enrollment token; and {@code dataplane.key}, the data plane's key, so a
 * restarted peer serves its fragments before the tracker answers again; and {@code ticket.key}, this
 * peer's own ticket key (it checks the tickets presented to it), for the same reason.
 */
final class PeerCredential {
  static final String CREDENTIAL = "peer.credential";
  static final String DATA_KEY = "dataplane.key";
  static final String TICKET_KEY = "ticket.key";

  private PeerCredential() {}

  static Path file(Path dataDir) {
    return dataDir.resolve(CREDENTIAL);
  }

  /** The secret stored under {@code name}, or null if this peer has none. */
  static GridToken read(Path dataDir, String name) throws IOException {
    Path f = dataDir.resolve(name);
    return Files.isRegularFile(f) ? GridToken.readFile(f) : null;
  }

  /** The text stored under {@code name}, or null. */
  static String readText(Path dataDir, String name) throws IOException {
    Path f = dataDir.resolve(name);
    return Files.isRegularFile(f) ? Files.readString(f, StandardCharsets.UTF_8).strip() : null;
  }

  /** Stores {@code secret} under {@code name}, unless the file already holds it. */
  static void write(Path dataDir, String name, GridToken secret) throws IOException {
    GridToken old = read(dataDir, name);
    if (old != null && old.text().equals(secret.text())) {
      return;
    }
    writeText(dataDir, name, secret.text());
  }

  /** Stores {@code text} under {@code name} atomically, mode 0600. */
  static void writeText(Path dataDir, String name, String text) throws IOException {
    Path tmp = Files.createTempFile(dataDir, name, ".tmp", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      Files.writeString(tmp, text + "\n", StandardCharsets.UTF_8);
      Files.move(tmp, dataDir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
