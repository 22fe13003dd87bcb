package org.cairn.cli.condor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The grid a plug-in's commands use, as {@code cairn}'s root flags: the plug-in's own options ({@code -tracker URL},
 * {@code -token-file F}, {@code -key-dir D}, given in a clean-up map file), else the job ad's {@code CairnTracker},
 * {@code CairnTokenFile}, {@code CairnKeyDir} (set in the submit file with {@code My.CairnTracker = "..."}; HTCondor
 * names the job ad in {@code _CONDOR_JOB_AD} for a transfer and with {@code -jobad} for a clean-up), a relative path
 * against {@code base} (the job's sandbox for a transfer, its {@code Iwd} for a clean-up). What neither names the command
 * finds as {@code cairn} does: {@code CAIRN_TRACKER}, {@code CAIRN_TOKEN_FILE}, {@code CAIRN_KEY_DIR} in the plug-in's
 * environment (which is the execute point's, not the job's), then {@code ~/.config/cairn/client.yaml}.
 *
 * @param tracker the tracker URL(s), or null
 * @param tokenFile the token file, or null
 * @param keyDir the app keys' directory, or null
 */
record GridFlags(String tracker, Path tokenFile, Path keyDir) {
  static final String TRACKER = "CairnTracker";
  static final String TOKEN_FILE = "CairnTokenFile";
  static final String KEY_DIR = "CairnKeyDir";
  /** Job ads are small; a larger file is not read. */
  static final long MAX_JOB_AD = 16L << 20;
  private static final Pattern WANTED = Pattern.compile("^\\s*(?i:" + TRACKER + "|" + TOKEN_FILE + "|" + KEY_DIR + "|Iwd)\\s*=.*");

  static final GridFlags NONE = new GridFlags(null, null, null);

  /** {@code cairn}'s root flags for these settings, with {@code -q} (no progress display). */
  List<String> args() {
    List<String> out = new ArrayList<>();
    if (tracker != null) {
      out.addAll(List.of("--tracker", tracker));
    }
    if (tokenFile != null) {
      out.addAll(List.of("--token-file", tokenFile.toString()));
    }
    if (keyDir != null) {
      out.addAll(List.of("--key-dir", keyDir.toString()));
    }
    out.add("-q");
    return out;
  }

  /**
   * The settings from the plug-in's {@code options} (by name without the dash), else the job ad at {@code jobAd} (null:
   * none), relative paths against {@code base} (null: the job ad's {@code Iwd}, else the job ad's directory).
   */
  static GridFlags resolve(Map<String, String> options, Path jobAd, Path base) throws IOException {
    ClassAd ad = jobAd == null ? new ClassAd() : read(jobAd);
    Path against = base;
    if (against == null) {
      String iwd = ad.string("Iwd");
      against = iwd != null && !iwd.isBlank() ? Path.of(iwd) : jobAd != null ? jobAd.toAbsolutePath().getParent() : Path.of("");
    }
    String tracker = pick(options.get("tracker"), ad.string(TRACKER));
    String token = pick(options.get("token-file"), ad.string(TOKEN_FILE));
    String keys = pick(options.get("key-dir"), ad.string(KEY_DIR));
    return new GridFlags(tracker, token == null ? null : against.resolve(token), keys == null ? null : against.resolve(keys));
  }

  private static String pick(String first, String second) {
    return first != null && !first.isBlank() ? first : second != null && !second.isBlank() ? second : null;
  }

  /** The job ad's lines that name these settings (and {@code Iwd}); a line HTCondor writes that is not one is skipped. */
  static ClassAd read(Path jobAd) throws IOException {
    if (Files.size(jobAd) > MAX_JOB_AD) {
      throw new IOException("job ad " + jobAd + " is larger than " + (MAX_JOB_AD >> 20) + " MiB");
    }
    StringBuilder wanted = new StringBuilder();
    for (String line : new String(Files.readAllBytes(jobAd), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
      if (WANTED.matcher(line).matches()) {
        wanted.append(line).append('\n');
      }
    }
    try {
      return ClassAdParser.parseOld(wanted.toString());
    } catch (ClassAdParser.Malformed e) {
      throw new IOException("job ad " + jobAd + ": " + e.getMessage().toLowerCase(Locale.ROOT), e);
    }
  }
}
