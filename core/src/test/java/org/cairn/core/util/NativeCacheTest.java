package org.cairn.core.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeCacheTest {
  @TempDir Path tmp;

  private byte[] library;

  /** A jar holding {@code lib/libfake.so} (seeded random bytes, deflated), and a class loader over it. */
  private URLClassLoader jar(long seed) throws Exception {
    library = new byte[200_000];
    new Random(seed).nextBytes(library);
    Path jar = tmp.resolve("fake-" + seed + ".jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry("lib/libfake.so"));
      out.write(library);
      out.closeEntry();
    }
    return new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
  }

  @Test
  void unpacksOnce_underTheEntrysCrcAndSize_andReusesIt() throws Exception {
    Path root = tmp.resolve("cache");
    try (URLClassLoader loader = jar(1)) {
      Optional<Path> dir = NativeCache.unpack(loader, "lib/libfake.so", "libfake-as.so", root);
      assertThat(dir).isPresent();
      Path file = dir.get().resolve("libfake-as.so");
      assertThat(Files.readAllBytes(file)).isEqualTo(library);
      assertThat(dir.get().getFileName().toString()).startsWith("lib_libfake.so-").endsWith("-" + library.length);
      try (var left = Files.list(dir.get())) {
        assertThat(left).containsExactly(file); // no temporary file left beside it
      }
      FileTime marked = FileTime.fromMillis(1_000_000_000_000L);
      Files.setLastModifiedTime(file, marked);
      assertThat(NativeCache.unpack(loader, "lib/libfake.so", "libfake-as.so", root)).isEqualTo(dir);
      assertThat(Files.getLastModifiedTime(file)).isEqualTo(marked); // not written again
    }
    try (URLClassLoader other = jar(2)) { // another build of the library: another directory
      Optional<Path> dir2 = NativeCache.unpack(other, "lib/libfake.so", "libfake-as.so", root);
      assertThat(dir2).isPresent();
      assertThat(Files.readAllBytes(dir2.get().resolve("libfake-as.so"))).isEqualTo(library);
      try (var dirs = Files.list(root)) {
        assertThat(dirs).hasSize(2);
      }
    }
  }

  @Test
  void aTruncatedCachedFile_isUnpackedAgain() throws Exception {
    Path root = tmp.resolve("cache");
    try (URLClassLoader loader = jar(3)) {
      Path file = NativeCache.unpack(loader, "lib/libfake.so", "x.so", root).orElseThrow().resolve("x.so");
      try (OutputStream out = Files.newOutputStream(file)) {
        out.write(library, 0, 1000); // a crash mid-copy by something else
      }
      NativeCache.unpack(loader, "lib/libfake.so", "x.so", root).orElseThrow();
      assertThat(Files.readAllBytes(file)).isEqualTo(library);
    }
  }

  @Test
  void aDamagedCachedFileOfTheRightSize_isUnpackedAgain() throws Exception {
    Path root = tmp.resolve("cache");
    try (URLClassLoader loader = jar(6)) {
      Path file = NativeCache.unpack(loader, "lib/libfake.so", "x.so", root).orElseThrow().resolve("x.so");
      byte[] damaged = library.clone();
      damaged[123_456] ^= 0x40; // one bit flipped
      Files.write(file, damaged);
      NativeCache.unpack(loader, "lib/libfake.so", "x.so", root).orElseThrow();
      assertThat(Files.readAllBytes(file)).isEqualTo(library);
    }
  }

  @Test
  void noSuchResource_orAnUnwritableCache_isEmpty() throws Exception {
    try (URLClassLoader loader = jar(4)) {
      assertThat(NativeCache.unpack(loader, "lib/missing.so", "x.so", tmp.resolve("cache"))).isEmpty();
      Path notADir = Files.writeString(tmp.resolve("file"), "x");
      assertThat(NativeCache.unpack(loader, "lib/libfake.so", "x.so", notADir.resolve("cache"))).isEmpty();
    }
  }

  @Test
  void load_givesTheCacheDirectory_orFallsBackWhenTheCachedFileDoesNotLoad() throws Exception {
    Path root = tmp.resolve("cache");
    URLClassLoader loader = jar(5);
    List<List<String>> given = new ArrayList<>();
    int[] fallbacks = {0};
    NativeCache.load(loader, "lib/libfake.so", "t.so", root, given::add, () -> fallbacks[0]++);
    assertThat(given).hasSize(1);
    assertThat(Path.of(given.get(0).get(0)).resolve("t.so")).isRegularFile();
    assertThat(fallbacks[0]).isZero();
    Path cached = Path.of(given.get(0).get(0)).resolve("t.so");
    NativeCache.load(loader, "lib/libfake.so", "t.so", root, dirs -> {
      throw new UnsatisfiedLinkError("not a library");
    }, () -> fallbacks[0]++);
    assertThat(fallbacks[0]).isEqualTo(1);
    assertThat(cached).doesNotExist(); // unpacked again by the next start
    NativeCache.load(loader, "lib/missing.so", "t.so", root, given::add, () -> fallbacks[0]++);
    assertThat(fallbacks[0]).isEqualTo(2);
    assertThat(given).hasSize(1);
    loader.close();
  }
}
