package org.cairn.cli.context;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.cairn.client.Grid;
import org.cairn.core.security.GridToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The grids an agent has open, one per tracker group and token its callers named: a command borrows
 * the one it names (its connections stay open for the next command). An agent started for one grid
 * ({@code cairn --tracker URL --token-file F agent}) has it as its default, for commands that name none.
 */
public final class GridPool implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GridPool.class);

  /** A grid as its callers name it: the tracker group's URLs and the token (never shown: {@link GridToken#toString}). */
  public record Key(List<URI> trackers, String token) {
    public Key {
      trackers = List.copyOf(trackers);
    }

    public static Key of(List<URI> trackers, GridToken token) {
      return new Key(trackers, token.text());
    }

    public GridToken gridToken() {
      return GridToken.of(token);
    }

    /** The trackers, for a log line or an error. */
    public String where() {
      return trackers.stream().map(URI::toString).reduce((a, b) -> a + "," + b).orElse("");
    }

    @Override
    public String toString() {
      return "grid of " + where();
    }
  }

  private final Map<Key, Grid> open = new ConcurrentHashMap<>();
  private final Key defaultKey;

  /** @param first the grid the agent was started for (null: none; every command names its own) */
  public GridPool(Key defaultKey, Grid first) {
    this.defaultKey = defaultKey;
    if (first != null) {
      open.put(defaultKey, first);
    }
  }

  /** The grid commands that name none use (null: none). */
  public Key defaultKey() {
    return defaultKey;
  }

  /** The grid {@code key} names, opened at its first use; lent to one command (closing it leaves it open here). */
  public Grid borrow(Key key) {
    return open.computeIfAbsent(key, k -> {
      LOG.info("opening the {} for a command", k);
      return Grid.open(k.trackers(), k.gridToken(), Grid.DEFAULT_TIMEOUT).recordsInBackground();
    }).borrowed();
  }

  /** The grids open now (the agent heartbeats and keeps connections for each). */
  public List<Grid> grids() {
    return List.copyOf(open.values());
  }

  /** The grids open now, as their callers named them. */
  public List<Key> keys() {
    return List.copyOf(open.keySet());
  }

  /** How many grids are open. */
  int size() {
    return open.size();
  }

  @Override
  public void close() {
    for (Grid g : open.values()) {
      try {
        g.close();
      } catch (RuntimeException e) {
        LOG.warn("closing a grid: {}", e.getMessage());
      }
    }
    open.clear();
  }
}
