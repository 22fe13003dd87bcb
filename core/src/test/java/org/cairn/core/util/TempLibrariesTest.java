package org.cairn.core.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TempLibrariesTest {
  @Test
  void sweepStale_deletesOnlyOldCopiesWithThePrefix() throws Exception {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    String prefix = "cairntestlib" + ProcessHandle.current().pid() + "-";
    Path old = Files.createTempFile(tmp, prefix, ".so");
    Path fresh = Files.createTempFile(tmp, prefix, ".so");
    Path other = Files.createTempFile(tmp, prefix, ".txt");
    try {
      Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
      Files.setLastModifiedTime(other, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
      assertThat(TempLibraries.sweepStale(prefix, Duration.ofMinutes(10))).isEqualTo(1);
      assertThat(old).doesNotExist();
      assertThat(fresh).exists();
      assertThat(other).as("not a shared library").exists();
    } finally {
      Files.deleteIfExists(old);
      Files.deleteIfExists(fresh);
      Files.deleteIfExists(other);
    }
  }

  @Test
  void unlinkLoaded_ignoresWhatThisProcessDoesNotMap() throws Exception {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    Path notLoaded = Files.createTempFile(tmp, "cairnunmapped", ".so");
    try {
      assertThat(TempLibraries.unlinkLoaded("cairnunmapped")).isZero();
      assertThat(notLoaded).exists();
    } finally {
      Files.deleteIfExists(notLoaded);
    }
  }
}
