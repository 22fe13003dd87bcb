package org.cairn.core.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TarImagesTest {
  @TempDir
  Path tmp;

  @Test
  void stream_isDeterministicWhateverTheMtimesAndCreationOrder() throws IOException {
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    makeTree(a, false);
    makeTree(b, true);
    Files.setLastModifiedTime(b.resolve("ckpt.dmtcp"), FileTime.fromMillis(123456789L));
    assertThat(bytesOf(a)).isEqualTo(bytesOf(b));
  }

  @Test
  void extract_restoresContentModesAndSymlinks() throws IOException {
    Path src = tmp.resolve("src");
    makeTree(src, false);
    Path dst = tmp.resolve("dst");
    try (InputStream in = TarImages.stream(src)) {
      TarImages.extract(in, dst);
    }
    assertThat(dst.resolve("ckpt.dmtcp")).hasBinaryContent(Files.readAllBytes(src.resolve("ckpt.dmtcp")));
    assertThat(dst.resolve("sub/deeper/restart.sh")).hasContent("#!/bin/sh\nexec app\n");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dst.resolve("sub/deeper/restart.sh"))))
        .isEqualTo("rwxr-x---");
    assertThat(Files.isSymbolicLink(dst.resolve("latest"))).isTrue();
    assertThat(Files.readSymbolicLink(dst.resolve("latest")).toString()).isEqualTo("ckpt.dmtcp");
    assertThat(dst.resolve("empty")).isDirectory();
    try (var s = Files.walk(dst)) {
      assertThat(s.filter(p -> p.toString().endsWith(".cairn-partial"))).isEmpty();
    }
  }

  @Test
  void extract_refusesEntriesOutsideTheTarget() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(bytes)) {
      TarArchiveEntry e = new TarArchiveEntry("../escape.txt");
      e.setSize(1);
      tar.putArchiveEntry(e);
      tar.write('x');
      tar.closeArchiveEntry();
    }
    Path dst = tmp.resolve("dst");
    assertThatThrownBy(() -> TarImages.extract(new ByteArrayInputStream(bytes.toByteArray()), dst))
        .hasMessageContaining("outside the target directory");
    assertThat(tmp.resolve("escape.txt")).doesNotExist();
  }

  @Test
  void extract_ofATruncatedStreamLeavesNoPartialFile() throws IOException {
    Path src = tmp.resolve("src");
    makeTree(src, false);
    byte[] tar;
    try (InputStream in = TarImages.stream(src)) {
      tar = in.readAllBytes();
    }
    Path dst = tmp.resolve("dst");
    // cut inside the 200 KB checkpoint file's data
    assertThatThrownBy(() -> TarImages.extract(new ByteArrayInputStream(tar, 0, 100_000), dst)).isInstanceOf(IOException.class);
    try (var s = Files.walk(dst)) {
      assertThat(s.filter(p -> p.toString().endsWith(".cairn-partial"))).isEmpty();
    }
    assertThat(dst.resolve("ckpt.dmtcp")).doesNotExist();
  }

  @Test
  void stream_refusesAFile() throws IOException {
    Path f = Files.writeString(tmp.resolve("f"), "x");
    assertThatThrownBy(() -> TarImages.stream(f)).hasMessageContaining("not a directory");
  }

  private static byte[] bytesOf(Path dir) throws IOException {
    try (InputStream in = TarImages.stream(dir)) {
      return in.readAllBytes();
    }
  }

  private static void makeTree(Path root, boolean reverse) throws IOException {
    Files.createDirectories(root);
    byte[] image = FixedSizeChunkerTest.random(200_000, 3);
    String[] order = reverse ? new String[] {"link", "sub", "ckpt", "empty"} : new String[] {"empty", "ckpt", "sub", "link"};
    for (String what : order) {
      switch (what) {
        case "ckpt":
          Files.write(root.resolve("ckpt.dmtcp"), image);
          break;
        case "sub":
          Files.createDirectories(root.resolve("sub/deeper"));
          Path sh = Files.writeString(root.resolve("sub/deeper/restart.sh"), "#!/bin/sh\nexec app\n", StandardCharsets.UTF_8);
          Files.setPosixFilePermissions(sh, PosixFilePermissions.fromString("rwxr-x---"));
          break;
        case "link":
          Files.createSymbolicLink(root.resolve("latest"), Path.of("ckpt.dmtcp"));
          break;
        default:
          Files.createDirectories(root.resolve("empty"));
          break;
      }
    }
  }
}
