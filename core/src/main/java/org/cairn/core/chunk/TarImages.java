package org.cairn.core.chunk;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.io.output.CloseShieldOutputStream;

/**
 * Directory checkpoints (DMTCP, CRIU) as one deterministic byte stream: a POSIX tar with entries
 * sorted by path, mtime 0, uid/gid 0 and no user names, so the same tree always gives the same bytes
 * and FsCH dedup finds unchanged files of successive checkpoints. Modes and symlinks are kept;
 * {@link #extract} restores them and refuses entries that would escape the target directory, however
 * the archive is made (it may come from someone else).
 */
public final class TarImages {
  private static final int PIPE_BUFFER = 1 << 20;

  private TarImages() {}

  /**
   * A stream of the tar image of {@code dir}, produced by a background thread through a bounded pipe.
   * An I/O error on the producer side surfaces from {@code read} or {@code close}.
   */
  public static InputStream stream(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new IOException("not a directory: " + dir);
    }
    List<Path> entries = listSorted(dir);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    PipedInputStream pipeIn = new PipedInputStream(PIPE_BUFFER);
    PipedOutputStream pipeOut = new PipedOutputStream(pipeIn);
    Thread producer = new Thread(() -> {
      try (OutputStream out = pipeOut) {
        write(dir, entries, out);
      } catch (Throwable t) {
        failure.set(t);
      }
    }, "tar-" + dir.getFileName());
    producer.setDaemon(true);
    producer.start();
    return new InputStream() {
      @Override
      public int read() throws IOException {
        int b = pipeIn.read();
        check(b < 0);
        return b;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = pipeIn.read(b, off, len);
        check(n < 0);
        return n;
      }

      private void check(boolean eof) throws IOException {
        if (eof) {
          try {
            producer.join();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while archiving " + dir, e);
          }
        }
        Throwable t = failure.get();
        if (t != null) {
          throw new IOException("archiving " + dir + " failed: " + t.getMessage(), t);
        }
      }

      @Override
      public void close() throws IOException {
        pipeIn.close();
      }
    };
  }

  /** Writes the deterministic tar of {@code dir} to {@code out} (not closed). */
  public static void write(Path dir, OutputStream out) throws IOException {
    write(dir, listSorted(dir), out);
  }

  private static void write(Path dir, List<Path> entries, OutputStream out) throws IOException {
    // close() is what flushes the last tar block; the shield keeps the caller's stream open
    TarArchiveOutputStream tar = new TarArchiveOutputStream(
        new BufferedOutputStream(CloseShieldOutputStream.wrap(out), 1 << 16), "UTF-8");
    tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
    tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
    tar.setAddPaxHeadersForNonAsciiNames(true);
    for (Path p : entries) {
      String name = dir.relativize(p).toString().replace('\\', '/');
      TarArchiveEntry e;
      boolean regular = false;
      if (Files.isSymbolicLink(p)) {
        e = new TarArchiveEntry(name, TarConstants.LF_SYMLINK);
        e.setLinkName(Files.readSymbolicLink(p).toString());
      } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
        e = new TarArchiveEntry(name + "/");
      } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
        e = new TarArchiveEntry(name);
        e.setSize(Files.size(p));
        regular = true;
      } else {
        continue; // sockets, fifos, devices: not part of a checkpoint image
      }
      e.setModTime(0L);
      e.setUserId(0);
      e.setGroupId(0);
      e.setUserName("");
      e.setGroupName("");
      e.setMode(modeOf(p, e));
      tar.putArchiveEntry(e);
      if (regular) {
        // TarArchiveEntry.isFile() is also true for symlinks, so track regular files ourselves
        Files.copy(p, tar);
      }
      tar.closeArchiveEntry();
    }
    tar.finish();
    tar.close();
  }

  private static List<Path> listSorted(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir)) {
      s.filter(p -> !p.equals(dir)).forEach(out::add);
    }
    out.sort((a, b) -> dir.relativize(a).toString().compareTo(dir.relativize(b).toString()));
    return out;
  }

  private static int modeOf(Path p, TarArchiveEntry e) throws IOException {
    int type = e.isSymbolicLink() ? 0120000 : e.isDirectory() ? 040000 : 0100000;
    if (e.isSymbolicLink()) {
      return type | 0777;
    }
    try {
      int bits = 0;
      for (PosixFilePermission perm : Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS)) {
        bits |= 1 << (8 - perm.ordinal());
      }
      return type | bits;
    } catch (UnsupportedOperationException e2) {
      return type | (e.isDirectory() ? 0755 : 0644);
    }
  }

  /**
   * Restores a tar image into {@code target} (created if missing), never writing outside it: an entry
   * with an absolute name or {@code ..}, one whose path goes through a symbolic link, a link whose
   * target is absolute or leads outside, a hard link to anything not restored here, or any other
   * kind of entry is refused with an {@link IOException} naming it. Files are written under a fresh
   * temporary name and renamed into place once complete. See {@link TarRestore}.
   */
  public static void extract(InputStream in, Path target) throws IOException {
    TarRestore.extract(in, target);
  }
}
