package org.cairn.core.chunk;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/** Opens what a checkpoint image can be: a file, standard input ({@code -}), or a directory (as its deterministic tar). */
public final class ImageSource {
  /** The manifest kinds. */
  public static final String FILE = "file";
  public static final String DIRECTORY = "dir";

  private ImageSource() {}

  /**
   * Opens {@code spec}: {@code -} is standard input (not closed with the returned stream), a
   * directory is streamed as a tar image, anything else is read as a file.
   *
   * @throws NoSuchFileException naming the path if it does not exist
   */
  public static InputStream open(String spec) throws IOException {
    if (spec.equals("-")) {
      return new FilterInputStream(System.in) {
        @Override
        public void close() {
          // standard input belongs to the process
        }
      };
    }
    return open(Path.of(spec));
  }

  public static InputStream open(Path path) throws IOException {
    if (Files.isDirectory(path)) {
      return TarImages.stream(path);
    }
    if (!Files.exists(path)) {
      throw new NoSuchFileException(path.toString(), null, "checkpoint image not found");
    }
    if (!Files.isRegularFile(path)) {
      throw new IOException("not a regular file or directory: " + path);
    }
    return new Unchanged(path);
  }

  /**
   * A file read to its end, then checked against what it was when opened: a file changed in place while it was read (a
   * job still writing its checkpoint) fails the read, so no version is made of half of it (tar's "file changed as we
   * read it", made an error). A file replaced by another (a rename over it, as checkpointers write) is not a change:
   * what was read is the whole of the one opened.
   */
  private static final class Unchanged extends FilterInputStream {
    private final Path path;
    private final BasicFileAttributes before;
    private long read;
    private boolean checked;

    Unchanged(Path path) throws IOException {
      super(null);
      this.path = path;
      this.before = Files.readAttributes(path, BasicFileAttributes.class);
      this.in = Files.newInputStream(path);
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b < 0) {
        atEnd();
      } else {
        read++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      if (n < 0) {
        atEnd();
      } else {
        read += n;
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = in.skip(n);
      read += skipped; // passed over, not unread: the end is still checked against the whole file
      return skipped;
    }

    private void atEnd() throws IOException {
      if (checked) {
        return;
      }
      checked = true;
      BasicFileAttributes after;
      try {
        after = Files.readAttributes(path, BasicFileAttributes.class);
      } catch (NoSuchFileException e) {
        return; // removed: what was read is the file opened
      }
      if (changedInPlace(before, after) || read != before.size() && sameFile(before, after)) {
        throw new IOException(path + " changed while it was read (" + before.size() + " bytes when opened, " + read + " read, "
            + after.size() + " now): nothing was stored; store it once it is complete");
      }
    }
  }

  /**
   * Copies file {@code from} to {@code to} (attributes too), failing as a read does if {@code from} changed in place
   * meanwhile: a private copy of a file still being written would be stored as if it were whole.
   */
  public static void copy(Path from, Path to) throws IOException {
    BasicFileAttributes before = Files.readAttributes(from, BasicFileAttributes.class);
    Files.copy(from, to, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
    BasicFileAttributes after;
    try {
      after = Files.readAttributes(from, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return;
    }
    if (changedInPlace(before, after)) {
      throw new IOException(from + " changed while it was copied (" + before.size() + " bytes, " + after.size()
          + " now): nothing was stored; store it once it is complete");
    }
  }

  /** Whether the file is the one it was (not replaced by a rename over it) and its size or modification time moved. */
  private static boolean changedInPlace(BasicFileAttributes before, BasicFileAttributes after) {
    return sameFile(before, after) && (after.size() != before.size() || !after.lastModifiedTime().equals(before.lastModifiedTime()));
  }

  private static boolean sameFile(BasicFileAttributes before, BasicFileAttributes after) {
    return before.fileKey() == null || before.fileKey().equals(after.fileKey());
  }

  /** {@link #DIRECTORY} for a directory, else {@link #FILE}. */
  public static String kindOf(Path path) {
    return Files.isDirectory(path) ? DIRECTORY : FILE;
  }
}
