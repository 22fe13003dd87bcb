package org.cairn.peer;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * The peer's settings file ({@code cairn-peer --config FILE}): a flat YAML mapping whose keys are the
 * flags' names without dashes, each value read as text for {@link PeerMain} to parse; the donor app
 * keeps its own rules in the same file under the {@code donor-} keys, which the peer leaves alone.
 */
final class PeerSettingsFile {
  private PeerSettingsFile() {}

  /** Keys the peer leaves to the donor app that runs it (cairn-donor's rules: donor-hours, donor-busy-cpu, ...). */
  static final String DONOR_PREFIX = "donor-";

  private static final List<String> KEYS = List.of("tracker", "data", "listen", "advertise", "quota", "min-free", "token-file",
      "heartbeat-interval", "tau1", "tau2", "max-clients", "paused", "id", "bandwidth-cap", "upload-cap", "download-cap", "io-capacity", "gc-interval", "gc-grace",
      "repair-rate", "repair-threads", "scrub-period", "scrub-max-rate", "report-disk-rate",
      "soft-sync-interval", "max-connections", "max-connections-per-address");

  /** The file's settings, each a scalar read as text; a key without a value is as if absent. */
  static Map<String, String> read(Path file, CommandLine cl) throws IOException {
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    Map<String, String> read;
    try (JsonParser p = yaml.createParser(file.toFile())) {
      JsonToken first = p.nextToken();
      if (first == null || first == JsonToken.VALUE_NULL) {
        return new HashMap<>(); // empty, or only comments
      }
      if (first != JsonToken.START_OBJECT) {
        throw new CommandLine.ParameterException(cl, "config file " + file + " must be a mapping of settings");
      }
      read = yaml.readValue(p, new TypeReference<LinkedHashMap<String, String>>() {});
    } catch (MismatchedInputException e) {
      throw new CommandLine.ParameterException(cl, "config file " + file + " must map each setting to one value ("
          + e.getOriginalMessage() + ")");
    } catch (IOException e) {
      throw new CommandLine.ParameterException(cl, "cannot read config file " + file + ": " + e.getMessage());
    }
    return known(read, file.toString(), cl);
  }

  /** The peer's settings among {@code read} (from {@code where}); an unknown key is an error. */
  static Map<String, String> known(Map<String, String> read, String where, CommandLine cl) {
    Map<String, String> out = new HashMap<>();
    for (Map.Entry<String, String> e : read.entrySet()) {
      if (e.getKey().startsWith(DONOR_PREFIX)) {
        continue; // the donor app's own settings (its rules), in the same file
      }
      if (!KEYS.contains(e.getKey())) {
        throw new CommandLine.ParameterException(cl, "unknown setting '" + e.getKey() + "' in " + where + "; known: " + KEYS);
      }
      if (e.getValue() != null) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return out;
  }
}
