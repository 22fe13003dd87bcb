package org.cairn.gui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import org.cairn.gui.boinc.BoincPrefs;
import org.cairn.gui.boinc.BoincPrefsException;
import org.cairn.gui.boinc.BoincPrefsReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches a BOINC data directory's preference files (through the links Debian makes to /etc/boinc-client,
 * which a directory watch would miss) by their content: each call to {@link #changed()} says whether they
 * differ from the last time, and gives the preferences when they do and can be used. Unusable files are
 * logged once, with why, and leave the donor as it is.
 */
final class BoincFollower {
  private static final Logger LOG = LoggerFactory.getLogger(BoincFollower.class);

  private final Path dir;
  private String seen;

  BoincFollower(Path dir) {
    this.dir = dir;
  }

  Path dir() {
    return dir;
  }

  /** What a change of the files gave: the preferences, or why they cannot be used (both null: there are none). */
  record Change(BoincPrefs prefs, String problem) {}

  /** The files' change since the last call (the first call: what they are), or null when they did not change. */
  Change changed() {
    String now = fingerprint();
    if (now.equals(seen)) {
      return null;
    }
    seen = now;
    try {
      Optional<BoincPrefs> prefs = BoincPrefsReader.read(dir);
      if (prefs.isEmpty()) {
        LOG.info("no BOINC preferences in {} ({} or {}); the donor's settings stay as they are", dir, BoincPrefsReader.GLOBAL,
            BoincPrefsReader.OVERRIDE);
      }
      return new Change(prefs.orElse(null), null);
    } catch (BoincPrefsException e) {
      LOG.warn("BOINC preferences not used, the donor's settings stay as they are: {}", e.getMessage());
      return new Change(null, e.getMessage());
    }
  }

  /** The two files' sizes and content hashes (a file larger than the reader takes: its size and time). */
  private String fingerprint() {
    StringBuilder b = new StringBuilder();
    for (String name : new String[] {BoincPrefsReader.GLOBAL, BoincPrefsReader.OVERRIDE}) {
      Path f = dir.resolve(name);
      try {
        long size = Files.size(f);
        b.append(size).append(':').append(size > (1 << 20) ? Files.getLastModifiedTime(f).toMillis()
            : sha256(Files.readAllBytes(f))).append(';');
      } catch (NoSuchFileException e) {
        b.append("none;");
      } catch (IOException e) {
        b.append("unreadable ").append(e.getClass().getSimpleName()).append(';');
      }
    }
    return b.toString();
  }

  private static String sha256(byte[] bytes) {
    try {
      return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
