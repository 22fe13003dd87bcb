package org.cairn.core.chunk;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

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
    return Files.newInputStream(path);
  }

  /** {@link #DIRECTORY} for a directory, else {@link #FILE}. */
  public static String kindOf(Path path) {
    return Files.isDirectory(path) ? DIRECTORY : FILE;
  }
}
