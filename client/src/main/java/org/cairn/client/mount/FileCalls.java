package org.cairn.client.mount;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Set;
import jnr.ffi.Pointer;
import org.cairn.core.api.catalog.VersionRow;
import org.cairn.core.chunk.ImageSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.struct.FuseFileInfo;

/**
 * The mount's calls on files: create and open (a new version being written, a version read, a local
 * file in a staging directory or a fetched directory version), read, write, truncate, and the
 * closes: the last close of a file being written commits its version, unless its writer is dying.
 * Each returns 0 (or a byte count) or a negative errno.
 */
final class FileCalls {
  private static final Logger LOG = LoggerFactory.getLogger(FileCalls.class);
  private static final int O_ACCMODE = 3;
  private static final int O_RDONLY = 0;
  private static final int O_TRUNC = 01000;

  private final Catalogue catalogue;
  private final OpenFiles files;
  private final LocalTrees local;

  FileCalls(Catalogue catalogue, OpenFiles files, LocalTrees local) {
    this.catalogue = catalogue;
    this.files = files;
    this.local = local;
  }

  int create(MountPath p, FuseFileInfo fi) throws IOException {
    if (p.staging() && p.isInside()) {
      fi.fh.set(files.local(FileChannel.open(local.staged(p), StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
          StandardOpenOption.WRITE)));
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
  }

  int open(MountPath p, FuseFileInfo fi) throws IOException {
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
    VersionRow row = p.staging() || p.isRoot() || p.isNode() ? null : catalogue.versions(p.node()).get(p.step());
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
  }

  int read(Pointer buf, long size, long offset, FuseFileInfo fi) throws IOException {
    Object h = files.get(fi.fh.get());
    if (h == null || h instanceof OpenFiles.Writing) {
      return -ErrorCodes.EBADF();
    }
    ByteBuffer data = OpenFiles.read(h, offset, (int) size);
    int n = data.remaining();
    buf.put(0, data.array(), data.arrayOffset() + data.position(), n);
    return n;
  }

  int write(Pointer buf, long size, long offset, FuseFileInfo fi) throws IOException {
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
  }

  int truncate(MountPath p, long size) throws IOException {
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
  }

  int ftruncate(long size, FuseFileInfo fi) throws IOException {
    Object h = files.get(fi.fh.get());
    if (h instanceof OpenFiles.Writing w) {
      w.write.truncate(size);
    } else if (h instanceof FileChannel c) {
      resize(c, size);
    } else {
      return -ErrorCodes.EROFS();
    }
    return 0;
  }

  /**
   * A close by task {@code pid} of the file at {@code absolutePath}: a file being written is
   * committed, unless its writer is dying, or the task still holds a duplicate descriptor of it.
   */
  int flush(String absolutePath, long pid, FuseFileInfo fi) {
    if (!(files.get(fi.fh.get()) instanceof OpenFiles.Writing w)) {
      return 0;
    }
    String dying = WriterExit.failed(pid);
    if (dying == null && WriterExit.stillOpen(pid, absolutePath)) {
      return 0; // a duplicate descriptor was closed; the file is finished at its last close
    }
    try {
      long step = files.close(w, dying);
      LOG.info("stored {}/{} as {}.{}", w.write.node(), w.write.name(), w.write.node(), step);
      return 0;
    } catch (IOException e) {
      LOG.warn("{}/{}: not stored: {}", w.write.node(), w.write.name(), e.getMessage());
      return -ErrorCodes.EIO();
    } finally {
      catalogue.changed(w.write.node());
    }
  }

  int release(FuseFileInfo fi) throws IOException {
    Object h = files.get(fi.fh.get());
    try {
      files.release(fi.fh.get());
    } finally {
      if (h instanceof OpenFiles.Writing w) {
        catalogue.changed(w.write.node());
      }
    }
    return 0;
  }

  int fsync(boolean data, FuseFileInfo fi) throws IOException {
    if (files.get(fi.fh.get()) instanceof FileChannel c) {
      c.force(!data);
    }
    return 0; // a file being written is durable when its close commits it
  }

  private static void resize(FileChannel c, long size) throws IOException {
    if (size < c.size()) {
      c.truncate(size);
    } else if (size > c.size()) {
      c.write(ByteBuffer.allocate(1), size - 1);
    }
  }
}
