package org.cairn.cli.command;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import org.cairn.cli.context.LiveCapacity;
import org.cairn.client.Grid;
import org.cairn.client.fetch.Fetcher;
import org.cairn.client.mount.MountGrid;
import org.cairn.client.store.StoreOptions;
import org.cairn.core.api.catalog.LocatedVersion;
import org.cairn.core.api.catalog.VersionRow;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.crypto.ChunkCrypto;

/** {@link MountGrid} for one app over a {@link Grid}: stores with {@code options} (as {@code cairn store}), reads with the app's key. */
final class MountedGrid implements MountGrid {
  /** How {@code cairn mount} stores: {@code cairn store}'s defaults but for the options the mount was given. */
  interface PerVersion {
    StoreOptions forVersion(String node, long step, String kind);
  }

  private final Grid grid;
  private final String app;
  private final PerVersion options;
  private final org.cairn.client.keys.AppKeys keys;

  MountedGrid(Grid grid, String app, PerVersion options, org.cairn.client.keys.AppKeys keys) {
    this.grid = grid;
    this.app = app;
    this.options = options;
    this.keys = keys;
  }

  @Override
  public List<String> nodes() throws IOException {
    return grid.apps().stream().filter(a -> a.app().equals(app)).flatMap(a -> a.nodes().keySet().stream()).sorted().toList();
  }

  @Override
  public List<VersionRow> versions(String node) throws IOException {
    return grid.versions(app, node);
  }

  @Override
  public long store(InputStream in, String node, long step, boolean directory) throws IOException {
    return grid.store(in, 0, options.forVersion(node, step, directory ? ImageSource.DIRECTORY : ImageSource.FILE)).step();
  }

  @Override
  public void fetch(String node, long step, OutputStream out) throws IOException {
    LocatedVersion located = grid.locate(app, node, step);
    ChunkCrypto crypto = keys.forVersion(located.manifest());
    grid.fetch(located, Fetcher.Options.defaults(), out, crypto);
  }

  @Override
  public void fetchDirectory(String node, long step, Path target) throws IOException {
    LocatedVersion located = grid.locate(app, node, step);
    FetchCommand.intoDirectory(grid, located, keys.forVersion(located.manifest()), target);
  }

  @Override
  public void delete(String node, long step) throws IOException {
    grid.delete(app, node, step);
  }

  @Override
  public Space space() throws IOException {
    LiveCapacity live = LiveCapacity.of(grid.peerList());
    return new Space(live.donated(), live.free());
  }
}
