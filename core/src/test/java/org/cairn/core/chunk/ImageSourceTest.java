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

  @Test
  void aFileChangedInPlaceWhileRead_failsTheRead_oneReplacedDoesNot() throws IOException {
    byte[] data = FixedSizeChunkerTest.random(300_000, 9);
    Path file = Files.write(tmp.resolve("growing.img"), data);
    try (InputStream in = ImageSource.open(file)) {
      in.readNBytes(100_000);
      Files.write(file, new byte[4096], java.nio.file.StandardOpenOption.APPEND); // the job writes on
      assertThatThrownBy(in::readAllBytes).isInstanceOf(IOException.class).hasMessageContaining("changed while it was read")
          .hasMessageContaining("300000 bytes when opened");
    }

    Path same = Files.write(tmp.resolve("rewritten.img"), data);
    try (InputStream in = ImageSource.open(same)) {
      in.readNBytes(1000);
      try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(same, java.nio.file.StandardOpenOption.WRITE)) {
        ch.write(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3}), 200_000); // same size, rewritten in place
      }
      Files.setLastModifiedTime(same, java.nio.file.attribute.FileTime.fromMillis(Files.getLastModifiedTime(same).toMillis() + 5000));
      assertThatThrownBy(in::readAllBytes).hasMessageContaining("changed while it was read");
    }

    Path replaced = Files.write(tmp.resolve("ckpt.img"), data);
    try (InputStream in = ImageSource.open(replaced)) {
      in.readNBytes(1000);
      Path next = Files.write(tmp.resolve("ckpt.img.tmp"), new byte[10]);
      Files.move(next, replaced, java.nio.file.StandardCopyOption.ATOMIC_MOVE); // a checkpointer's rename over it
      byte[] rest = in.readAllBytes();
      assertThat(rest).hasSize(data.length - 1000);
    }

    Path untouched = Files.write(tmp.resolve("done.img"), data);
    try (InputStream in = ImageSource.open(untouched)) {
      assertThat(in.readAllBytes()).isEqualTo(data);
      assertThat(in.read()).isEqualTo(-1);
    }
    try (InputStream in = ImageSource.open(untouched)) {
      assertThat(in.skip(1000)).isEqualTo(1000); // passed over, not missing
      assertThat(in.readAllBytes()).hasSize(data.length - 1000);
    }
  }
}
