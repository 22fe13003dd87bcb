package org.cairn.cli.context;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.cairn.core.crypto.AppKey;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.crypto.Encryption;
import picocli.CommandLine;

/** An app's key and sealing as the commands that write chunks take them: made on the app's first use, loudly. */
public final class AppCrypto {
  private AppCrypto() {}

  /** The sealing of app's chunks: its key (made now, with a loud warning, on the app's first store) unless plaintext. */
  public static ChunkCrypto of(Root root, CommandLine cl, String app, Encryption sealing) throws IOException {
    if (!sealing.encrypted()) {
      return ChunkCrypto.PLAIN;
    }
    return key(root, cl, app).crypto(sealing);
  }

  /** App's key, made now with a loud warning if the app has none yet. */
  public static AppKey key(Root root, CommandLine cl, String app) throws IOException {
    org.cairn.client.keys.AppKeys.Created key = root.keys().findOrCreate(app, java.time.Instant.now());
    if (key.created()) {
      warn(cl.getErr(), "created a new key " + key.key().fingerprint() + " for app " + app + ":", key.path());
    }
    return key.key();
  }

  /** The loud warning every new or exported key gets, on stderr. */
  public static void warn(PrintWriter err, String what, Path path) {
    err.println("WARNING: " + what + " " + path);
    err.println("WARNING: " + org.cairn.client.keys.AppKeys.LOSS_WARNING + ".");
    err.flush();
  }
}
