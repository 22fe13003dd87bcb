package org.cairn.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.image.MemoryImages;

/** The images a benchmark runs on: files the user names, or a seeded synthetic series. */
public final class BenchData {
  /** Images above this are read only up to it (benchmarks work in memory). */
  public static final long MAX_IMAGE = 1L << 30;

  private final List<byte[]> images;
  private final String description;

  private BenchData(List<byte[]> images, String description) {
    this.images = images;
    this.description = description;
  }

  public List<byte[]> images() {
    return images;
  }

  public byte[] first() {
    return images.get(0);
  }

  public String description() {
    return description;
  }

  /**
   * Loads the given files, or, when there are none, makes {@code syntheticCount} successive
   * synthetic memory images of {@code syntheticSize} bytes (each changing 10 % of the previous).
   */
  public static BenchData load(List<Path> files, long syntheticSize, int syntheticCount) throws IOException {
    if (files != null && !files.isEmpty()) {
      List<byte[]> images = new ArrayList<>();
      for (Path f : files) {
        if (!Files.isRegularFile(f)) {
          throw new IOException("data file not found or not a regular file: " + f);
        }
        try (InputStream in = Files.newInputStream(f)) {
          byte[] b = in.readNBytes((int) Math.min(MAX_IMAGE, Files.size(f)));
          if (b.length == 0) {
            throw new IOException("data file is empty: " + f);
          }
          images.add(b);
        }
      }
      return new BenchData(images, files.size() == 1 ? files.get(0).toString() : files.size() + " files from " + files.get(0));
    }
    if (syntheticSize < MemoryImages.PAGE || syntheticSize > MAX_IMAGE) {
      throw new IllegalArgumentException("--size must be between 4KiB and 1GiB, was " + syntheticSize);
    }
    List<byte[]> images = new ArrayList<>();
    byte[] image = MemoryImages.image(42, (int) syntheticSize);
    images.add(image);
    for (int i = 1; i < syntheticCount; i++) {
      image = MemoryImages.successor(image, 0.10, 42 + i);
      images.add(image);
    }
    return new BenchData(images, syntheticCount + " synthetic memory image(s) of " + syntheticSize + " bytes, seed 42");
  }
}
