package org.cairn.client.mount;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.NavigableMap;
import java.util.concurrent.Executor;
import jnr.ffi.Pointer;
import org.cairn.core.api.catalog.VersionRow;
import org.cairn.core.chunk.ImageSource;
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
 * the {@link Catalogue}, the {@link OpenFiles} and the {@link LocalTrees}; the calls on open files
 * are {@link FileCalls}'. Each callback returns 0 or
 * a negative errno; a failure the user should hear about is logged with the path.
 */
public final class CairnFs extends FuseStubFS {
  private static final Logger LOG = LoggerFactory.getLogger(CairnFs.class);

  private final MountGrid grid;
  private final Catalogue catalogue;
  private final OpenFiles files;
  private final LocalTrees local;
  private final Attributes attributes;
  private final FileCalls calls;
  private final NameCalls names;
  private final Runnable onMounted;
  private final Attributes.Owner owner = Attributes.Owner.current();

  /** A mount of one app; {@code cacheDir} holds files being read and directories staged or fetched. */
  public CairnFs(MountGrid grid, Path cacheDir, Executor executor, Runnable onMounted) throws IOException {
    this.grid = grid;
    this.catalogue = new Catalogue(grid, 1_000_000_000L);
    this.files = new OpenFiles(grid, cacheDir, executor);
    this.local = new LocalTrees(cacheDir, grid);
    this.attributes = new Attributes();
    this.calls = new FileCalls(catalogue, files, local);
    this.names = new NameCalls(grid, catalogue, files, local);
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
      MountPath p = committed(MountPath.parse(path));
      // the mounting user owns everything: with allow_other and default_permissions the kernel then
      // checks other local users against the modes, instead of each seeing its own files
      int uid = owner.uid();
      int gid = owner.gid();
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
      MountPath p = committed(MountPath.parse(path));
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
    return run("mkdir", path, () -> names.mkdir(path));
  }

  @Override
  public int rmdir(String path) {
    return run("rmdir", path, () -> names.rmdir(path));
  }

  @Override
  public int unlink(String path) {
    return run("unlink", path, () -> names.unlink(path));
  }

  @Override
  public int rename(String from, String to) {
    return run("rename", from, () -> names.rename(from, to));
  }

  @Override
  public int create(String path, long mode, FuseFileInfo fi) {
    return run("create", path, () -> calls.create(MountPath.parse(path), fi));
  }

  @Override
  public int open(String path, FuseFileInfo fi) {
    return run("open", path, () -> calls.open(committed(MountPath.parse(path)), fi));
  }

  @Override
  public int read(String path, Pointer buf, long size, long offset, FuseFileInfo fi) {
    return run("read", path, () -> calls.read(buf, size, offset, fi));
  }

  @Override
  public int write(String path, Pointer buf, long size, long offset, FuseFileInfo fi) {
    return run("write", path, () -> calls.write(buf, size, offset, fi));
  }

  @Override
  public int truncate(String path, long size) {
    return run("truncate", path, () -> calls.truncate(MountPath.parse(path), size));
  }

  @Override
  public int ftruncate(String path, long size, FuseFileInfo fi) {
    return run("ftruncate", path, () -> calls.ftruncate(size, fi));
  }

  @Override
  public int flush(String path, FuseFileInfo fi) {
    return run("flush", path, () -> calls.flush(mountPoint.toAbsolutePath() + path, getContext().pid.get(), fi));
  }

  @Override
  public int release(String path, FuseFileInfo fi) {
    return run("release", path, () -> calls.release(fi));
  }

  @Override
  public int fsync(String path, int isdatasync, FuseFileInfo fi) {
    return run("fsync", path, () -> calls.fsync(isdatasync != 0, fi));
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

  /**
   * A path under {@code NODE/.new-STEP/} once that directory was committed as version STEP: the
   * version's. Checkpointers record absolute paths into their checkpoint directory (DMTCP's saved
   * copies of open files, {@code ckpt_*_files/}), and a restart reads them there; other paths as given.
   */
  private MountPath committed(MountPath p) throws IOException {
    if (!p.staging() || Files.exists(local.staged(p.entry()))) {
      return p;
    }
    long step = MountPath.step(p.name().substring(MountPath.STAGING.length()));
    VersionRow row = step > 0 ? catalogue.versions(p.node()).get(step) : null;
    return row != null && ImageSource.DIRECTORY.equals(row.kind()) ? new MountPath(p.node(), Long.toString(step), p.rest()) : p;
  }

  /** The local path of {@code p} inside a staging directory or a directory version; null for other paths. */
  private Path localPath(MountPath p) throws IOException {
    if (p.staging()) {
      return local.staged(p);
    }
    VersionRow row = catalogue.versions(p.node()).get(p.step());
    return row != null && ImageSource.DIRECTORY.equals(row.kind()) ? local.version(p, row.step()) : null;
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
