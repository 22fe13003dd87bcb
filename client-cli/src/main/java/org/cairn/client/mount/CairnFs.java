package org.cairn.client.mount;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.NavigableMap;
import java.util.Set;
import java.util.concurrent.Executor;
import jnr.ffi.Pointer;
import org.cairn.core.api.VersionRow;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.chunk.TarImages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.FuseFillDir;
import ru.serce.jnrfuse.FuseStubFS;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseFileInfo;
import ru.serce.jnrfuse.struct.Statvfs;

/**
 * The FUSE callbacks of {@code cairn mount}: which path is what ({@link MountPath}), answered from
 * the {@link Catalogue}, the {@link OpenFiles} and the {@link LocalTrees}. Each callback returns 0 or
 * a negative errno; a failure the user should hear about is logged with the path.
 */
public final class CairnFs extends FuseStubFS {
  private static final Logger LOG = LoggerFactory.getLogger(CairnFs.class);
  private static final int O_ACCMODE = 3;
  private static final int O_RDONLY = 0;
  private static final int O_TRUNC = 01000;

  private final MountGrid grid;
  private final Catalogue catalogue;
  private final OpenFiles files;
  private final LocalTrees local;
  private final Attributes attributes;
  private final Runnable onMounted;

  /** A mount of one app; {@code cacheDir} holds files being read and directories staged or fetched. */
  public CairnFs(MountGrid grid, Path cacheDir, Executor executor, Runnable onMounted) throws IOException {
    this.grid = grid;
    this.catalogue = new Catalogue(grid, 1_000_000_000L);
    this.files = new OpenFiles(grid, cacheDir, executor);
    this.local = new LocalTrees(cacheDir, grid);
    this.attributes = new Attributes();
    this.onMounted = onMounted;
  }

  @Override
  public Pointer init(Pointer conn) {
    onMounted.run();
    return null;
  }

  @Override
  public void destroy(Pointer initResult) {
    files.abortAll("the file system was unmounted before the file was closed");
  }

  @Override
  public int getattr(String path, FileStat stat) {
    return run("getattr", path, () -> {
      MountPath p = MountPath.parse(path);
      int uid = (int) getContext().uid.get();
      int gid = (int) getContext().gid.get();
      if (p.isRoot() || p.isNode() && catalogue.hasNode(p.node())) {
        attributes.directory(stat, 0755, uid, gid, 0);
        return 0;
      }
      if (p.isNode()) {
        return -ErrorCodes.ENOENT();
      }
      if (p.staging()) {
        return attributes.local(stat, local.staged(p), false, uid, gid);
      }
      StreamingWrite w = p.isEntry() ? files.writing(p.node(), p.name()) : null;
      if (w != null) {
        attributes.file(stat, 0644, w.length(), uid, gid, System.currentTimeMillis());
        return 0;
      }
      NavigableMap<Long, VersionRow> versions = catalogue.versions(p.node());
      if (p.isEntry() && p.name().equals(MountPath.LATEST) && !versions.isEmpty()) {
        attributes.link(stat, Long.toString(versions.lastKey()).length(), uid, gid, versions.lastEntry().getValue().committedAt());
        return 0;
      }
      VersionRow row = versions.get(p.step());
      if (row == null) {
        return -ErrorCodes.ENOENT();
      }
      if (!ImageSource.DIRECTORY.equals(row.kind())) {
        if (p.isInside()) {
          return -ErrorCodes.ENOTDIR();
        }
        attributes.file(stat, 0444, row.size(), uid, gid, row.committedAt());
        return 0;
      }
      if (p.isEntry()) {
        attributes.directory(stat, 0555, uid, gid, row.committedAt());
        return 0;
      }
      return attributes.local(stat, local.version(p, row.step()), true, uid, gid);
    });
  }

  @Override
  public int readlink(String path, Pointer buf, long size) {
    return run("readlink", path, () -> {
      MountPath p = MountPath.parse(path);
      if (p.isEntry() && p.name().equals(MountPath.LATEST) && !p.staging()) {
        NavigableMap<Long, VersionRow> versions = catalogue.versions(p.node());
        if (!versions.isEmpty()) {
          byte[] target = Long.toString(versions.lastKey()).getBytes(StandardCharsets.US_ASCII);
          int n = (int) Math.min(target.length, size - 1);
          buf.put(0, target, 0, n);
          buf.putByte(n, (byte) 0);
          return 0;
        }
      }
      return -ErrorCodes.EINVAL();
    });
  }

  @Override
  public int readdir(String path, Pointer buf, FuseFillDir filler, long offset, FuseFileInfo fi) {
    return run("readdir", path, () -> {
      MountPath p = MountPath.parse(path);
      filler.apply(buf, ".", null, 0);
      filler.apply(buf, "..", null, 0);
      if (p.isRoot()) {
        for (String node : catalogue.nodes()) {
          filler.apply(buf, node, null, 0);
        }
        return 0;
      }
      if (p.isNode()) {
        if (!catalogue.hasNode(p.node())) {
          return -ErrorCodes.ENOENT();
        }
        NavigableMap<Long, VersionRow> versions = catalogue.versions(p.node());
        for (Long step : versions.keySet()) {
          filler.apply(buf, Long.toString(step), null, 0);
        }
        if (!versions.isEmpty()) {
          filler.apply(buf, MountPath.LATEST, null, 0);
        }
        for (String name : local.stagedNames(p.node())) {
          filler.apply(buf, name, null, 0);
        }
        for (String name : files.writingNames(p.node())) {
          filler.apply(buf, name, null, 0);
        }
        return 0;
      }
      Path dir = localPath(p);
      if (dir == null || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
        return -ErrorCodes.ENOTDIR();
      }
      try (java.util.stream.Stream<Path> s = Files.list(dir)) {
        for (Path f : (Iterable<Path>) s.sorted()::iterator) {
          filler.apply(buf, f.getFileName().toString(), null, 0);
        }
      }
      return 0;
    });
  }

  @Override
  public int statfs(String path, Statvfs st) {
    return run("statfs", path, () -> {
      MountGrid.Space space = grid.space();
      long block = 4096;
      st.f_bsize.set(block);
      st.f_frsize.set(block);
      st.f_blocks.set(space.total() / block);
      st.f_bfree.set(space.free() / block);
      st.f_bavail.set(space.free() / block);
      st.f_namemax.set(255);
      return 0;
    });
  }

  @Override
  public int mkdir(String path, long mode) {
    return run("mkdir", path, () -> {
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
    });
  }

  @Override
  public int rmdir(String path) {
    return run("rmdir", path, () -> {
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
    });
  }

  @Override
  public int unlink(String path) {
    return run("unlink", path, () -> {
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
    });
  }

  @Override
  public int rename(String from, String to) {
    return run("rename", from, () -> {
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
    });
  }

  @Override
  public int create(String path, long mode, FuseFileInfo fi) {
    return run("create", path, () -> {
      MountPath p = MountPath.parse(path);
      if (p.staging() && p.isInside()) {
        Path f = local.staged(p);
        fi.fh.set(files.local(FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)));
        return 0;
      }
      if (!p.isEntry() || p.staging() || p.name().equals(MountPath.LATEST)) {
        return p.isRoot() || p.isNode() ? -ErrorCodes.EPERM() : -ErrorCodes.EROFS();
      }
      if (!catalogue.hasNode(p.node())) {
        return -ErrorCodes.ENOENT();
      }
      if (catalogue.versions(p.node()).containsKey(p.step())) {
        return -ErrorCodes.EEXIST();
      }
      Long fh = files.create(p.node(), p.name(), Math.max(0, p.step()));
      if (fh == null) {
        return -ErrorCodes.EBUSY();
      }
      fi.fh.set(fh);
      return 0;
    });
  }

  @Override
  public int open(String path, FuseFileInfo fi) {
    return run("open", path, () -> {
      MountPath p = MountPath.parse(path);
      boolean readOnly = (fi.flags.get() & O_ACCMODE) == O_RDONLY;
      if (p.staging() && p.isInside()) {
        Set<StandardOpenOption> how = readOnly ? EnumSet.of(StandardOpenOption.READ)
            : EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE);
        if ((fi.flags.get() & O_TRUNC) != 0 && !readOnly) {
          how.add(StandardOpenOption.TRUNCATE_EXISTING);
        }
        fi.fh.set(files.local(FileChannel.open(local.staged(p), how)));
        return 0;
      }
      if (p.isEntry() && files.writing(p.node(), p.name()) != null) {
        return -ErrorCodes.EBUSY();
      }
      if (!readOnly) {
        return -ErrorCodes.EROFS();
      }
      VersionRow row = p.staging() ? null : catalogue.versions(p.node()).get(p.step());
      if (row == null) {
        return -ErrorCodes.ENOENT();
      }
      if (!ImageSource.DIRECTORY.equals(row.kind())) {
        fi.fh.set(files.read(p.node(), row.step(), row.size()));
      } else if (p.isInside()) {
        fi.fh.set(files.local(FileChannel.open(local.version(p, row.step()), StandardOpenOption.READ)));
      } else {
        return -ErrorCodes.EISDIR();
      }
      return 0;
    });
  }

  @Override
  public int read(String path, Pointer buf, long size, long offset, FuseFileInfo fi) {
    return run("read", path, () -> {
      Object h = files.get(fi.fh.get());
      if (h == null || h instanceof OpenFiles.Writing) {
        return -ErrorCodes.EBADF();
      }
      ByteBuffer data = OpenFiles.read(h, offset, (int) size);
      int n = data.remaining();
      buf.put(0, data.array(), data.arrayOffset() + data.position(), n);
      return n;
    });
  }

  @Override
  public int write(String path, Pointer buf, long size, long offset, FuseFileInfo fi) {
    return run("write", path, () -> {
      Object h = files.get(fi.fh.get());
      byte[] data = new byte[(int) size];
      buf.get(0, data, 0, data.length);
      if (h instanceof OpenFiles.Writing w) {
        w.write.write(offset, data);
      } else if (h instanceof FileChannel c) {
        ByteBuffer b = ByteBuffer.wrap(data);
        while (b.hasRemaining()) {
          c.write(b, offset + b.position());
        }
      } else {
        return -ErrorCodes.EBADF();
      }
      return data.length;
    });
  }

  @Override
  public int truncate(String path, long size) {
    return run("truncate", path, () -> {
      MountPath p = MountPath.parse(path);
      if (p.staging() && p.isInside()) {
        try (FileChannel c = FileChannel.open(local.staged(p), StandardOpenOption.WRITE)) {
          resize(c, size);
        }
        return 0;
      }
      StreamingWrite w = p.isEntry() ? files.writing(p.node(), p.name()) : null;
      if (w == null) {
        return -ErrorCodes.EROFS();
      }
      w.truncate(size);
      return 0;
    });
  }

  @Override
  public int ftruncate(String path, long size, FuseFileInfo fi) {
    return run("ftruncate", path, () -> {
      Object h = files.get(fi.fh.get());
      if (h instanceof OpenFiles.Writing w) {
        w.write.truncate(size);
      } else if (h instanceof FileChannel c) {
        resize(c, size);
      } else {
        return -ErrorCodes.EROFS();
      }
      return 0;
    });
  }

  @Override
  public int flush(String path, FuseFileInfo fi) {
    Object h = files.get(fi.fh.get());
    if (!(h instanceof OpenFiles.Writing w)) {
      return 0;
    }
    long pid = getContext().pid.get();
    String dying = WriterExit.failed(pid);
    if (dying == null && WriterExit.stillOpen(pid, mountPoint.toAbsolutePath() + path)) {
      return 0; // a duplicate descriptor was closed; the file is finished at its last close
    }
    try {
      long step = files.close(w, dying);
      catalogue.changed(w.write.node());
      LOG.info("stored {}/{} as {}.{}", w.write.node(), w.write.name(), w.write.node(), step);
      return 0;
    } catch (IOException e) {
      catalogue.changed(w.write.node());
      LOG.warn("{}/{}: not stored: {}", w.write.node(), w.write.name(), e.getMessage());
      return -ErrorCodes.EIO();
    }
  }

  @Override
  public int release(String path, FuseFileInfo fi) {
    return run("release", path, () -> {
      Object h = files.get(fi.fh.get());
      try {
        files.release(fi.fh.get());
      } finally {
        if (h instanceof OpenFiles.Writing w) {
          catalogue.changed(w.write.node());
        }
      }
      return 0;
    });
  }

  @Override
  public int fsync(String path, int isdatasync, FuseFileInfo fi) {
    return run("fsync", path, () -> {
      if (files.get(fi.fh.get()) instanceof FileChannel c) {
        c.force(isdatasync == 0);
      }
      return 0; // a file being written is durable when its close commits it
    });
  }

  @Override
  public int chmod(String path, long mode) {
    return writable(path);
  }

  @Override
  public int chown(String path, long uid, long gid) {
    return writable(path);
  }

  @Override
  public int utimens(String path, ru.serce.jnrfuse.struct.Timespec[] timespec) {
    return writable(path);
  }

  /** Modes, owners and times are not kept: accepted (and ignored) where the user may write, else read-only. */
  private int writable(String path) {
    MountPath p = MountPath.parse(path);
    return p.staging() || p.isEntry() && files.writing(p.node(), p.name()) != null ? 0 : -ErrorCodes.EROFS();
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

  /** The local path of {@code p} inside a staging directory or a directory version; null for other paths. */
  private Path localPath(MountPath p) throws IOException {
    if (p.staging()) {
      return local.staged(p);
    }
    VersionRow row = catalogue.versions(p.node()).get(p.step());
    return row != null && ImageSource.DIRECTORY.equals(row.kind()) ? local.version(p, row.step()) : null;
  }

  private static void resize(FileChannel c, long size) throws IOException {
    if (size < c.size()) {
      c.truncate(size);
    } else if (size > c.size()) {
      c.write(ByteBuffer.allocate(1), size - 1);
    }
  }

  /** One callback: IO failures become errnos, logged with the path. */
  private static int run(String op, String path, Op body) {
    try {
      return body.run();
    } catch (NoSuchFileException e) {
      return -ErrorCodes.ENOENT();
    } catch (FileAlreadyExistsException e) {
      return -ErrorCodes.EEXIST();
    } catch (DirectoryNotEmptyException e) {
      return -ErrorCodes.ENOTEMPTY();
    } catch (IOException | RuntimeException e) {
      LOG.warn("{} {}: {}", op, path, e.getMessage() != null ? e.getMessage() : e.toString());
      LOG.debug("{} {}", op, path, e);
      return -ErrorCodes.EIO();
    }
  }

  @FunctionalInterface
  private interface Op {
    int run() throws IOException;
  }
}
