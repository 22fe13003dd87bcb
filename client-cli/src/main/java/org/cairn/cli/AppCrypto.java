package org.cairn.cli;

import java.io.IOException;
import org.cairn.core.crypto.AppKey;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.crypto.Encryption;
import picocli.CommandLine;

/** An app's key and sealing as the commands that write chunks take them: made on the app's first use, loudly. */
final class AppCrypto {
  private AppCrypto() {}

  /** The sealing of app's chunks: its key (made now, with a loud warning, on the app's first store) unless plaintext. */
  static ChunkCrypto of(CairnCli root, CommandLine cl, String app, Encryption sealing) throws IOException {
    if (!sealing.encrypted()) {
      return ChunkCrypto.PLAIN;
    }
    return key(root, cl, app).crypto(sealing);
  }

  /** App's key, made now with a loud warning if the app has none yet. */
  static AppKey key(CairnCli root, CommandLine cl, String app) throws IOException {
    org.cairn.client.AppKeys.Created key = root.keys().findOrCreate(app, java.time.Instant.now());
    if (key.created()) {
      KeyCommand.warn(cl.getErr(), "created a new key " + key.key().fingerprint() + " for app " + app + ":", key.path());
    }
    return key.key();
  }
}
