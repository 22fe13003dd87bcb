package org.cairn.peer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/** A peer's id: chosen once (peer-<8 hex>) and kept in its data directory's peer-id file, or given by configuration. */
final class PeerIdentity {
  private PeerIdentity() {}

  static String of(PeerConfig config) throws IOException {
    Files.createDirectories(config.dataDir());
    return config.id() != null ? config.id() : loadOrCreateId(config.dataDir());
  }

  static String loadOrCreateId(Path dataDir) throws IOException {
    Path file = dataDir.resolve("peer-id");
    if (Files.exists(file)) {
      String id = Files.readString(file, StandardCharsets.UTF_8).trim();
      if (!id.matches("[A-Za-z0-9._-]{1,64}")) {
        throw new IOException("peer id in " + file + " is invalid: '" + id + "'; delete the file to get a new one");
      }
      return id;
    }
    String id = "peer-" + UUID.randomUUID().toString().substring(0, 8);
    Path tmp = dataDir.resolve("peer-id.tmp");
    Files.writeString(tmp, id + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    return id;
  }
}
