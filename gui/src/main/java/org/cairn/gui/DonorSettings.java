package org.cairn.gui;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.cairn.core.config.ByteSize;
import org.cairn.core.config.HostPort;
import org.cairn.peer.PeerConfig;
import org.cairn.peer.PeerMain;

/**
 * The donor's settings file, as text: the peer's YAML keys (tracker, token-file, data, quota, listen,
 * advertise, ... as {@code cairn-peer --config} reads them) and the donor's rules under the
 * {@code donor-} keys the peer leaves alone. The grid token itself lives in the token file beside it
 * (mode 0600), never in the YAML.
 */
final class DonorSettings {
  static final String BUSY_CPU = "donor-busy-cpu";
  static final String BUSY_AFTER = "donor-busy-after";
  static final String HOURS = "donor-hours";
  static final String CAP = "donor-daily-upload-cap";
  /** Keys whose change needs the peer started again (a quota change does not). */
  static final java.util.List<String> RESTART_KEYS = java.util.List.of("tracker", "token-file", "data", "listen", "advertise",
      "bandwidth-cap", "upload-cap", "download-cap", "min-free");

  private final Map<String, String> values;

  DonorSettings(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** The file's settings; none if it does not exist. */
  static DonorSettings load(Path file) throws IOException {
    if (file == null || !Files.exists(file) || Files.size(file) == 0) {
      return new DonorSettings(Map.of());
    }
    Map<String, String> read = new ObjectMapper(new YAMLFactory()).readValue(file.toFile(),
        new TypeReference<LinkedHashMap<String, String>>() {});
    return new DonorSettings(read == null ? Map.of() : read);
  }

  String get(String key) {
    return values.getOrDefault(key, "");
  }

  Map<String, String> values() {
    return values;
  }

  /** These settings with {@code key} set (removed when blank). */
  DonorSettings with(String key, String value) {
    Map<String, String> m = new LinkedHashMap<>(values);
    if (value == null || value.isBlank()) {
      m.remove(key);
    } else {
      m.put(key, value.trim());
    }
    return new DonorSettings(m);
  }

  /** The grid token in the token file, or "" when there is none yet. */
  String token() throws IOException {
    String f = get("token-file");
    return f.isEmpty() || !Files.exists(Path.of(f)) ? "" : Files.readString(Path.of(f), StandardCharsets.UTF_8).trim();
  }

  /** The donor rules these settings give, {@code defaults} (the command line's) where a key is absent. */
  DonorRules.Settings rules(DonorRules.Settings defaults) {
    double cpu = get(BUSY_CPU).isEmpty() ? defaults.busyCpu() : number(BUSY_CPU, get(BUSY_CPU));
    String after = get(BUSY_AFTER).isEmpty() ? defaults.busyAfter().toSeconds() + "s" : get(BUSY_AFTER);
    String hours = get(HOURS).isEmpty() ? defaults.hours().toString() : get(HOURS);
    String cap = get(CAP).isEmpty() ? (defaults.dailyUploadCap() == 0 ? "" : Long.toString(defaults.dailyUploadCap())) : get(CAP);
    return DonorRules.Settings.parse(cpu, after, hours, cap);
  }

  /** Checks what the peer and the rules will parse; the first problem as one sentence, or null. */
  String problem() {
    try {
      if (!get("tracker").matches("https?://.+")) {
        return "the tracker URL must start with https:// (http:// only for a tracker started with --insecure-plain-http)";
      }
      org.cairn.core.api.TrackerEndpoints.parse(get("tracker"));
      if (get("data").isEmpty()) {
        return "choose a data directory";
      }
      if (ByteSize.parse(get("quota")) <= 0) {
        return "the quota must be more than 0";
      }
      HostPort.parse(get("listen").isEmpty() ? "127.0.0.1:0" : get("listen"));
      for (String cap : java.util.List.of("bandwidth-cap", "upload-cap", "download-cap", "min-free")) {
        if (!get(cap).isEmpty()) {
          ByteSize.parse(get(cap));
        }
      }
      if (!get(BoincAdoption.DIR).isEmpty() && !Files.isDirectory(Path.of(get(BoincAdoption.DIR)))) {
        return "the BOINC directory " + get(BoincAdoption.DIR) + " does not exist";
      }
      rules(DonorRules.Settings.parse(0.8, "60s", "", ""));
      return null;
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }

  /** Writes the token file (0600) and then the settings, each under a temporary name renamed into place. */
  void save(Path file, String token) throws IOException {
    Path tokenFile = Path.of(get("token-file"));
    Files.createDirectories(tokenFile.toAbsolutePath().getParent());
    Path tmpToken = tokenFile.resolveSibling(tokenFile.getFileName() + ".tmp");
    Files.writeString(tmpToken, token.trim() + "\n", StandardCharsets.UTF_8);
    try {
      Files.setPosixFilePermissions(tmpToken, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system
    }
    Files.move(tmpToken, tokenFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    AtomicWrite.replace(file, new ObjectMapper(new YAMLFactory()).writeValueAsString(values));
  }

  /**
   * Sets one key in the settings file, keeping the others as they are ("Set quota…"); nothing when
   * the app runs on peer flags ({@code file} null).
   */
  static void setKey(Path file, String key, String value) throws IOException {
    if (file == null) {
      return;
    }
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    // the settings are the peer's flat YAML: each value a scalar, kept as its text
    Map<String, String> settings = Files.exists(file) && Files.size(file) > 0
        ? yaml.readValue(file.toFile(), new TypeReference<LinkedHashMap<String, String>>() {})
        : null;
    if (settings == null) {
      settings = new LinkedHashMap<>();
    }
    settings.put(key, value);
    AtomicWrite.replace(file, yaml.writeValueAsString(settings));
  }

  /**
   * The peer these settings run: their peer keys parsed as {@code cairn-peer --config} parses the
   * file ({@link PeerMain#fromSettings}), the {@code donor-} keys left to the rules.
   *
   * @param where the settings file, named in errors
   * @throws picocli.CommandLine.ParameterException naming the bad, unknown or missing setting
   */
  PeerConfig peerConfig(Path where) throws IOException {
    return PeerMain.fromSettings(values, String.valueOf(where));
  }

  /** Whether going from {@code before} to these settings needs the peer started again. */
  boolean needsRestart(DonorSettings before, String tokenBefore, String tokenNow) {
    return !tokenBefore.equals(tokenNow) || RESTART_KEYS.stream().anyMatch(k -> !get(k).equals(before.get(k)));
  }

  private static double number(String key, String text) {
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a number, was '" + text + "'", e);
    }
  }
}
