package org.cairn.cli;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import org.cairn.client.Grid;
import org.cairn.core.security.GridToken;
import picocli.CommandLine;

/**
 * How a command reaches the grid: tracker URL and token from flags, else the environment
 * ({@code CAIRN_TRACKER}; {@code CAIRN_TOKEN_FILE} names a token file, {@code CAIRN_TOKEN} holds
 * the token itself), else {@code ~/.config/cairn/client.yaml} (keys
 * {@code tracker}, {@code token-file}); the grid it opens is the {@link Grid} façade.
 */
final class GridAccess {
  private GridAccess() {}

  static Grid open(CairnCli root, CommandLine cl) throws IOException {
    Grid lent = root.session.grid();
    if (lent != null) {
      URI served = lent.tracker().base();
      if (root.tracker != null && !java.util.Arrays.stream(root.tracker.split(",")).map(u -> strip(u.strip()))
          .anyMatch(u -> u.equals(strip(served.toString())))) {
        throw new CommandLine.ParameterException(cl, "the agent serves tracker " + served + ", not " + root.tracker
            + ": unset CAIRN_AGENT_SOCKET (or drop --agent) to use another grid");
      }
      return lent.borrowed();
    }
    String url = root.tracker;
    Path tokenFile = root.session.path(root.tokenFile);
    String envTokenFile = System.getenv("CAIRN_TOKEN_FILE");
    if (tokenFile == null && envTokenFile != null && !envTokenFile.isBlank()) {
      tokenFile = Path.of(envTokenFile);
    }
    String envToken = System.getenv("CAIRN_TOKEN");
    if (url == null) {
      url = System.getenv("CAIRN_TRACKER");
    }
    Path config = ClientConfig.defaultPath();
    if (url == null || (tokenFile == null && envToken == null)) {
      ClientConfig file = ClientConfig.read(config, cl);
      if (url == null) {
        url = file.tracker();
      }
      if (tokenFile == null && envToken == null && file.tokenFile() != null) {
        tokenFile = Path.of(file.tokenFile());
      }
    }
    if (url == null) {
      throw new CommandLine.ParameterException(cl, "no tracker: give --tracker URL, set CAIRN_TRACKER, or put 'tracker:' in " + config);
    }
    GridToken token;
    if (tokenFile != null) {
      try {
        token = GridToken.readFile(tokenFile);
      } catch (java.nio.file.NoSuchFileException e) {
        throw new CommandLine.ParameterException(cl, "token file " + tokenFile + " not found");
      }
    } else if (envToken != null) {
      token = GridToken.of(envToken);
    } else {
      throw new CommandLine.ParameterException(cl, "no grid token: give --token-file FILE, set CAIRN_TOKEN_FILE or CAIRN_TOKEN, or put 'token-file:' in " + config);
    }
    java.util.List<URI> trackers;
    try {
      trackers = org.cairn.core.api.TrackerEndpoints.parse(url);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    }
    return Grid.open(trackers, token, Grid.DEFAULT_TIMEOUT);
  }

  private static String strip(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
