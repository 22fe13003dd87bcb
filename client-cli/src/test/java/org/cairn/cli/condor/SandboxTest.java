package org.cairn.cli.condor;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SandboxTest {
  @TempDir
  Path dir;

  @Test
  void aDownloadWritesOnlyInsideTheSandboxMakingItsDirectories() throws Exception {
    Path root = Files.createDirectory(dir.resolve("sandbox"));
    Sandbox s = new Sandbox(root);
    Path real = root.toRealPath();
    assertThat(s.target(real + "/state/sub/rank0.img")).isEqualTo(real.resolve("state/sub/rank0.img"));
    assertThat(real.resolve("state/sub")).isDirectory();
    assertThat(s.target("relative.bin")).isEqualTo(real.resolve("relative.bin"));
    for (String bad : new String[] {real + "/../escape", "/etc/passwd", real.toString(), "a/../../b", "", "a\0b"}) {
      assertThatThrownBy(() -> s.target(bad)).as(bad).isInstanceOf(Sandbox.Refused.class);
    }
    assertThat(dir.resolve("escape")).doesNotExist();
  }

  @Test
  void aSymbolicLinkOutOfTheSandboxIsNeitherWrittenThroughNorRead() throws Exception {
    Path root = Files.createDirectory(dir.resolve("sandbox"));
    Path outside = Files.createDirectory(dir.resolve("outside"));
    Files.writeString(outside.resolve("secret"), "s");
    Files.createSymbolicLink(root.resolve("link"), outside);
    Files.createSymbolicLink(root.resolve("secret-link"), outside.resolve("secret"));
    Sandbox s = new Sandbox(root);
    assertThatThrownBy(() -> s.target("link/new")).isInstanceOf(Sandbox.Refused.class).hasMessageContaining("symbolic link");
    assertThatThrownBy(() -> s.source("secret-link")).isInstanceOf(Sandbox.Refused.class).hasMessageContaining("symbolic link");
    assertThatThrownBy(() -> s.source("link")).isInstanceOf(Sandbox.Refused.class);
    assertThat(outside.resolve("new")).doesNotExist();
  }
}
