package org.cairn.client.mount;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalTreesTest {
  @TempDir
  Path tmp;

  @Test
  void aPathInsideAFetchedVersionIsNotFollowedThroughASymlink() throws IOException {
    Path version = Files.createDirectories(tmp.resolve("versions/n/5"));
    Path outside = Files.createDirectories(tmp.resolve("outside"));
    Files.createSymbolicLink(version.resolve("d"), outside);
    assertThatThrownBy(() -> LocalTrees.within(version, "d/secret")).hasMessageContaining("symbolic link d");
  }

  @Test
  void aLinkItselfAndRealDirectoriesResolveInsideTheVersion() throws IOException {
    Path version = Files.createDirectories(tmp.resolve("versions/n/5"));
    Files.createDirectories(version.resolve("sub"));
    Files.createSymbolicLink(version.resolve("sub/l"), Path.of(".."));
    assertThat(LocalTrees.within(version, "sub/l")).isEqualTo(version.resolve("sub/l"));
    assertThat(LocalTrees.within(version, "sub/x")).isEqualTo(version.resolve("sub/x"));
  }
}
