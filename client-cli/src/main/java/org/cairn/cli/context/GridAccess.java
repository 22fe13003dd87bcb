package org.cairn.cli.context;

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
public final class GridAccess {
  private GridAccess() {}

  public static Grid open(Root root, CommandLine cl) throws IOException {
    GridPool pool = root.session().grids();
    if (pool != null) {
      return pool.borrow(key(root, cl));
    }
    GridPool.Key key = named(root, cl);
    if (key == null) {
      throw new CommandLine.ParameterException(cl, "no tracker: give --tracker URL, set CAIRN_TRACKER, or put 'tracker:' in "
          + ClientConfig.defaultPath());
    }
    return Grid.open(key.trackers(), key.gridToken(), Grid.DEFAULT_TIMEOUT);
  }

  /**
   * The grid a command run by an agent means: the one its flags, its environment or its config file name, else the
   * agent's own (an agent started for one grid). A command that names a tracker but no token uses the agent's token
   * when the agent serves that tracker.
   */
  public static GridPool.Key key(Root root, CommandLine cl) throws IOException {
    GridPool pool = root.session().grids();
    GridPool.Key own = pool == null ? null : pool.defaultKey();
    String url = tracker(root, cl);
    GridToken token = token(root, cl);
    if (url == null && own != null) {
      return token == null ? own : new GridPool.Key(own.trackers(), token.text());
    }
    if (url == null) {
      throw new CommandLine.ParameterException(cl, "no tracker: give --tracker URL, set CAIRN_TRACKER, or put 'tracker:' in "
          + ClientConfig.defaultPath());
    }
    java.util.List<URI> trackers = trackers(url, cl);
    if (token == null && own != null && trackers.stream().anyMatch(u -> own.trackers().stream().anyMatch(o -> same(o, u)))) {
      return new GridPool.Key(trackers, own.token());
    }
    if (token == null) {
      throw noToken(cl);
    }
    return GridPool.Key.of(trackers, token);
  }

  /** The grid the command names, or null when it names no tracker. */
  private static GridPool.Key named(Root root, CommandLine cl) throws IOException {
    String url = tracker(root, cl);
    if (url == null) {
      return null;
    }
    GridToken token = token(root, cl);
    if (token == null) {
      throw noToken(cl);
    }
    return GridPool.Key.of(trackers(url, cl), token);
  }

  private static CommandLine.ParameterException noToken(CommandLine cl) {
    return new CommandLine.ParameterException(cl, "no grid token: give --token-file FILE, set CAIRN_TOKEN_FILE or CAIRN_TOKEN, or put "
        + "'token-file:' in " + ClientConfig.defaultPath());
  }

  /** The tracker URL(s) from --tracker, else CAIRN_TRACKER, else the config file; null if none. */
  private static String tracker(Root root, CommandLine cl) throws IOException {
    if (root.tracker() != null) {
      return root.tracker();
    }
    String env = root.session().env("CAIRN_TRACKER");
    if (env != null && !env.isBlank()) {
      return env;
    }
    return ClientConfig.read(ClientConfig.defaultPath(), cl).tracker();
  }

  /** The token from --token-file, else CAIRN_TOKEN_FILE, else CAIRN_TOKEN, else the config file's token-file; null if none. */
  private static GridToken token(Root root, CommandLine cl) throws IOException {
    Path tokenFile = root.session().path(root.tokenFile());
    String envTokenFile = root.session().env("CAIRN_TOKEN_FILE");
    if (tokenFile == null && envTokenFile != null && !envTokenFile.isBlank()) {
      tokenFile = root.session().path(Path.of(envTokenFile));
    }
    String envToken = root.session().env("CAIRN_TOKEN");
    if (tokenFile == null && (envToken == null || envToken.isBlank())) {
      String configured = ClientConfig.read(ClientConfig.defaultPath(), cl).tokenFile();
      tokenFile = configured == null ? null : Path.of(configured);
    }
    if (tokenFile != null) {
      try {
        return GridToken.readFile(tokenFile);
      } catch (java.nio.file.NoSuchFileException e) {
        throw new CommandLine.ParameterException(cl, "token file " + tokenFile + " not found");
      }
    }
    return envToken == null || envToken.isBlank() ? null : GridToken.of(envToken);
  }

  private static java.util.List<URI> trackers(String url, CommandLine cl) {
    try {
      return org.cairn.core.api.TrackerEndpoints.parse(url);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    }
  }

  private static boolean same(URI a, URI b) {
    return strip(a.toString()).equals(strip(b.toString()));
  }

  private static String strip(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
