package org.cairn.client.mount;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.cairn.core.api.catalog.VersionRow;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.chunk.TarImages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import ru.serce.jnrfuse.ErrorCodes;

/**
 * The mount's calls that change names: {@code mkdir} of a node or a staging directory, {@code rm}
 * and {@code rmdir} of versions (as {@code cairn rm}) and of staged files, and {@code rename}, which
 * commits {@code NODE/.new-STEP} as directory version STEP. Each returns 0 or a negative errno.
 */
final class NameCalls {
  private static final Logger LOG = LoggerFactory.getLogger(NameCalls.class);

  private final MountGrid grid;
  private final Catalogue catalogue;
  private final OpenFiles files;
  private final LocalTrees local;

  NameCalls(MountGrid grid, Catalogue catalogue, OpenFiles files, LocalTrees local) {
    this.grid = grid;
    this.catalogue = catalogue;
    this.files = files;
    this.local = local;
  }

  int mkdir(String path) throws IOException {
    MountPath p = MountPath.parse(path);
    if (p.isNode()) {
      if (catalogue.hasNode(p.node())) {
        return -ErrorCodes.EEXIST();
      }
      catalogue.make(p.node());
      return 0;
    }
    if (p.staging() && catalogue.hasNode(p.node())) {
      Path dir = local.staged(p);
      if (p.isEntry()) {
        if (Files.exists(dir)) {
          return -ErrorCodes.EEXIST();
        }
        Files.createDirectories(dir);
      } else {
        Files.createDirectory(dir);
      }
      return 0;
    }
    LOG.info("mkdir {}: refused; a node's directory holds versions, and a directory checkpoint is written under"
        + " NODE/{}STEP/ and renamed to NODE/STEP", path, MountPath.STAGING);
    return -ErrorCodes.EPERM();
  }

  int rmdir(String path) throws IOException {
    MountPath p = MountPath.parse(path);
    if (p.isNode()) {
      return catalogue.unmake(p.node()) ? 0 : -ErrorCodes.ENOTEMPTY();
    }
    if (p.staging()) {
      Files.delete(local.staged(p));
      return 0;
    }
    if (p.isEntry() && p.step() > 0) {
      VersionRow row = catalogue.versions(p.node()).get(p.step());
      if (row == null) {
        return -ErrorCodes.ENOENT();
      }
      if (!ImageSource.DIRECTORY.equals(row.kind())) {
        return -ErrorCodes.ENOTDIR();
      }
      return delete(p.node(), row.step());
    }
    return -ErrorCodes.EROFS();
  }

  int unlink(String path) throws IOException {
    MountPath p = MountPath.parse(path);
    if (p.staging()) {
      Files.delete(local.staged(p));
      return 0;
    }
    if (p.isEntry() && files.writing(p.node(), p.name()) != null) {
      return -ErrorCodes.EBUSY();
    }
    if (p.isEntry() && p.step() > 0) {
      VersionRow row = catalogue.versions(p.node()).get(p.step());
      if (row == null) {
        return -ErrorCodes.ENOENT();
      }
      if (ImageSource.DIRECTORY.equals(row.kind())) {
        return -ErrorCodes.EISDIR();
      }
      return delete(p.node(), row.step());
    }
    return p.isEntry() && !p.name().equals(MountPath.LATEST) ? -ErrorCodes.ENOENT() : -ErrorCodes.EROFS();
  }

  int rename(String from, String to) throws IOException {
    MountPath a = MountPath.parse(from);
    MountPath b = MountPath.parse(to);
    if (a.staging() && b.staging() && a.node().equals(b.node()) && (a.isInside() || b.isEntry())) {
      Files.move(local.staged(a), local.staged(b), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return 0;
    }
    if (a.staging() && a.isEntry() && b.isEntry() && a.node().equals(b.node()) && b.step() > 0) {
      return commitDirectory(a, b.step());
    }
    LOG.info("rename {} -> {}: refused; only NODE/{}STEP renamed to NODE/STEP commits a directory version", from, to,
        MountPath.STAGING);
    return -ErrorCodes.EPERM();
  }

  private int commitDirectory(MountPath staged, long step) throws IOException {
    if (catalogue.versions(staged.node()).containsKey(step)) {
      return -ErrorCodes.EEXIST();
    }
    Path dir = local.staged(staged);
    long t0 = System.nanoTime();
    try (java.io.InputStream tar = TarImages.stream(dir)) {
      grid.store(tar, staged.node(), step, true);
    } catch (IOException e) {
      LOG.warn("{}/{}: directory not stored as {}.{}: {} (it stays staged)", staged.node(), staged.name(), staged.node(), step,
          e.getMessage());
      return -ErrorCodes.EIO();
    } finally {
      catalogue.changed(staged.node());
    }
    org.apache.commons.io.file.PathUtils.deleteDirectory(dir);
    LOG.info("stored directory {}/{} as {}.{} in {} ms", staged.node(), staged.name(), staged.node(), step,
        (System.nanoTime() - t0) / 1_000_000);
    return 0;
  }

  private int delete(String node, long step) throws IOException {
    grid.delete(node, step);
    catalogue.changed(node);
    local.forget(node, step);
    LOG.info("deleted {}.{}", node, step);
    return 0;
  }
}
