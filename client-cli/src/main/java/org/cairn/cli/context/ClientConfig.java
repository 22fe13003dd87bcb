package org.cairn.cli.context;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * {@code ~/.config/cairn/client.yaml}: where the client finds its grid when neither flags nor the
 * environment say (keys {@code tracker} and {@code token-file}, each optional). A key it does not
 * know, or a file that is not a mapping of those keys to text, is a usage error naming the file.
 */
record ClientConfig(String tracker, @JsonProperty("token-file") String tokenFile) {
  static final ClientConfig NONE = new ClientConfig(null, null);
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  static Path defaultPath() {
    return Path.of(System.getProperty("user.home"), ".config", "cairn", "client.yaml");
  }

  /** The file's settings; {@link #NONE} when there is no such file or it holds nothing (only comments). */
  static ClientConfig read(Path file, CommandLine cl) {
    if (!Files.isRegularFile(file)) {
      return NONE;
    }
    try (JsonParser p = YAML.createParser(file.toFile())) {
      JsonToken first = p.nextToken();
      if (first == null || first == JsonToken.VALUE_NULL) {
        return NONE; // empty, or only comments
      }
      return YAML.readValue(p, ClientConfig.class);
    } catch (UnrecognizedPropertyException e) {
      throw new CommandLine.ParameterException(cl, "unknown setting '" + e.getPropertyName() + "' in " + file
          + "; known: [tracker, token-file]");
    } catch (MismatchedInputException e) {
      throw new CommandLine.ParameterException(cl, "config file " + file + " must map tracker and token-file to text ("
          + e.getOriginalMessage() + ")");
    } catch (IOException e) {
      throw new CommandLine.ParameterException(cl, "cannot read config file " + file + ": " + e.getMessage());
    }
  }
}
