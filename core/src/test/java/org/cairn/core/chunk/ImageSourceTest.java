package org.cairn.core.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImageSourceTest {
  @TempDir
  Path tmp;

  @Test
  void open_readsFilesAsIsAndDirectoriesAsTheirTar() throws IOException {
    Path file = Files.write(tmp.resolve("ckpt.img"), FixedSizeChunkerTest.random(100_000, 7));
    try (InputStream in = ImageSource.open(file.toString())) {
      assertThat(in.readAllBytes()).isEqualTo(Files.readAllBytes(file));
    }
    assertThat(ImageSource.kindOf(file)).isEqualTo(ImageSource.FILE);

    Path dir = Files.createDirectories(tmp.resolve("dmtcp"));
    Files.copy(file, dir.resolve("ckpt_rank0.dmtcp"));
    ByteArrayOutputStream tar = new ByteArrayOutputStream();
    TarImages.write(dir, tar);
    try (InputStream in = ImageSource.open(dir)) {
      assertThat(in.readAllBytes()).isEqualTo(tar.toByteArray());
    }
    assertThat(ImageSource.kindOf(dir)).isEqualTo(ImageSource.DIRECTORY);
  }

  @Test
  void open_namesAMissingImage() {
    assertThatThrownBy(() -> ImageSource.open(tmp.resolve("missing.img")))
        .isInstanceOf(NoSuchFileException.class).hasMessageContaining("missing.img");
  }
}
