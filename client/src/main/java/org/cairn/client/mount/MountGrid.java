package org.cairn.client.mount;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import org.cairn.core.api.catalog.VersionRow;

/** What the mounted file system needs of the grid, for one app (the CLI binds it to a {@code Grid} and the app's key). */
public interface MountGrid {
  /** The app's nodes that have versions. */
  List<String> nodes() throws IOException;

  /** The node's committed versions, oldest first. */
  List<VersionRow> versions(String node) throws IOException;

  /** Stores {@code in} (a file, or a directory's tar image when {@code directory}) as version {@code step} (0: the next). */
  long store(InputStream in, String node, long step, boolean directory) throws IOException;

  /** Writes file version node/step to {@code out} (decrypted). */
  void fetch(String node, long step, OutputStream out) throws IOException;

  /** Restores directory version node/step into {@code target}, which does not exist yet. */
  void fetchDirectory(String node, long step, Path target) throws IOException;

  /** Deletes version node/step (as {@code cairn rm}). */
  void delete(String node, long step) throws IOException;

  /** The grid's donated space, for {@code df}. */
  Space space() throws IOException;

  /** Bytes the donors give and have free. */
  record Space(long total, long free) {}
}
