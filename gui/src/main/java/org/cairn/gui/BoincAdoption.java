package org.cairn.gui;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.cairn.core.config.ByteSize;
import org.cairn.gui.boinc.BoincLimits;

/**
 * BOINC's preferences as the donor's settings: which settings-file key each of {@link BoincLimits} sets, and
 * what changed, in words, when they are adopted again.
 */
final class BoincAdoption {
  /** The settings key naming the BOINC data directory the donor follows (absent: it does not). */
  static final String DIR = "donor-boinc-dir";
  /** The Debian package's BOINC data directory (its preference files are links into /etc/boinc-client). */
  static final Path DEBIAN_DIR = Path.of("/var/lib/boinc-client");
  /** The keys adopting BOINC's preferences may set; any other setting is the owner's alone. */
  static final List<String> KEYS = List.of("quota", "min-free", "upload-cap", "download-cap", DonorSettings.CAP, DonorSettings.HOURS,
      DonorSettings.BUSY_CPU, DonorSettings.BUSY_AFTER);

  private BoincAdoption() {}

  /** {@code s} with BOINC's limits in place of its own (a blank one removes the key: no cap, always). */
  static DonorSettings apply(DonorSettings s, BoincLimits l) {
    DonorSettings out = s.with("quota", Long.toString(l.quotaBytes())).with("min-free", Long.toString(l.minFreeBytes()))
        .with("upload-cap", l.upBytesPerSec() == 0 ? "" : Long.toString(l.upBytesPerSec()))
        .with("download-cap", l.downBytesPerSec() == 0 ? "" : Long.toString(l.downBytesPerSec()))
        .with(DonorSettings.CAP, l.dailyCapBytes() == 0 ? "" : Long.toString(l.dailyCapBytes()))
        .with(DonorSettings.HOURS, l.hours())
        .with(DonorSettings.BUSY_CPU, Double.toString(l.busyCpu()));
    return l.busyAfter() == null ? out : out.with(DonorSettings.BUSY_AFTER, l.busyAfter().toSeconds() + "s");
  }

  /** Each adopted setting that differs, as {@code key: before -> after} (sizes in words), in {@link #KEYS} order. */
  static List<String> changes(DonorSettings before, DonorSettings after) {
    List<String> out = new ArrayList<>();
    for (String k : KEYS) {
      if (!before.get(k).equals(after.get(k))) {
        out.add(k + ": " + shown(k, before.get(k)) + " -> " + shown(k, after.get(k)));
      }
    }
    return out;
  }

  private static String shown(String key, String v) {
    if (v.isEmpty()) {
      return key.equals(DonorSettings.HOURS) ? "always" : key.endsWith("-cap") ? "none" : "default";
    }
    if (key.equals("quota") || key.equals("min-free") || key.endsWith("-cap")) {
      try {
        return ByteSize.format(ByteSize.parse(v)) + (key.equals("upload-cap") || key.equals("download-cap") ? "/s" : "");
      } catch (IllegalArgumentException e) {
        return v;
      }
    }
    if (key.equals(DonorSettings.BUSY_CPU)) {
      try {
        double f = Double.parseDouble(v);
        return f >= 1 ? "off" : String.format(Locale.ROOT, "%.0f %%", f * 100);
      } catch (NumberFormatException e) {
        return v;
      }
    }
    return v;
  }

  /** The data directory's volume (its nearest existing ancestor's), with {@code held} bytes the peer keeps there. */
  static BoincLimits.Disk disk(Path data, long held) throws IOException {
    Path p = data.toAbsolutePath();
    while (!Files.exists(p) && p.getParent() != null) {
      p = p.getParent();
    }
    FileStore fs = Files.getFileStore(p);
    return new BoincLimits.Disk(fs.getTotalSpace(), fs.getUsableSpace(), held);
  }
}
