package org.cairn.core.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hostile archives: each is refused with a clear error and nothing lands outside the target. */
class TarRestoreTest {
  @TempDir
  Path tmp;
  Path sentinel;
  Path dst;

  @BeforeEach
  void dirs() throws IOException {
    sentinel = Files.createDirectories(tmp.resolve("sentinel"));
    dst = tmp.resolve("dst");
  }

  @Test
  void aSymlinkToAnAbsolutePathIsRefusedSoAFileThroughItIsNeverWritten() throws IOException {
    byte[] tar = tar(t -> {
      link(t, "d", sentinel.toString());
      file(t, "d/owned", "x");
    });
    assertRefused(tar, "absolute");
    assertThat(Files.exists(dst.resolve("d"), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
  }

  @Test
  void aFileWhosePathGoesThroughASymlinkIsRefusedEvenWhenTheLinkStaysInside() throws IOException {
    byte[] tar = tar(t -> {
      dir(t, "sub/");
      link(t, "d", "sub");
      file(t, "d/owned", "x");
    });
    assertRefused(tar, "symbolic link");
    assertThat(dst.resolve("sub/owned")).doesNotExist();
  }

  @Test
  void aSymlinkAlreadyInTheTargetIsNotFollowedByAnEntry() throws IOException {
    Files.createDirectories(dst);
    Files.createSymbolicLink(dst.resolve("d"), sentinel);
    byte[] tar = tar(t -> file(t, "d/owned", "x"));
    assertRefused(tar, "symbolic link");
  }

  @Test
  void aDirectoryEntryOverAnExistingSymlinkIsRefusedAndItsModeNotSetThroughIt() throws IOException {
    Files.createDirectories(dst);
    Files.createSymbolicLink(dst.resolve("d"), sentinel);
    String before = java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(sentinel));
    byte[] tar = tar(t -> {
      TarArchiveEntry e = new TarArchiveEntry("d/");
      e.setMode(040777);
      t.putArchiveEntry(e);
      t.closeArchiveEntry();
    });
    assertRefused(tar, "symbolic link");
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(sentinel))).isEqualTo(before);
  }

  @Test
  void aSymlinkLeadingOutWithDotDotIsRefused() throws IOException {
    byte[] tar = tar(t -> {
      dir(t, "sub/");
      link(t, "sub/out", "../../sentinel");
    });
    assertRefused(tar, "outside the target directory");
  }

  @Test
  void dotDotThroughALinkIsRefused() throws IOException {
    // here -> . points at the target itself, so here/.. would be the target's parent
    byte[] tar = tar(t -> {
      link(t, "here", ".");
      link(t, "up", "here/..");
    });
    assertRefused(tar, "outside the target directory");
  }

  @Test
  void aLongChainOfLinksCannotCarryAnEntryOrAnotherLinkOut() throws IOException {
    byte[] viaChain = tar(t -> {
      link(t, "c0", ".");
      for (int i = 1; i <= 40; i++) {
        link(t, "c" + i, "c" + (i - 1));
      }
      link(t, "esc", "c40/../sentinel");
    });
    assertRefused(viaChain, "outside the target directory");
    byte[] through = tar(t -> {
      link(t, "c0", ".");
      for (int i = 1; i <= 40; i++) {
        link(t, "c" + i, "c" + (i - 1));
      }
      file(t, "c40/owned", "x");
    });
    assertRefused(through, "symbolic link");
  }

  @Test
  void aHardLinkToEtcPasswdIsRefused() throws IOException {
    byte[] tar = tar(t -> hardLink(t, "passwd", "/etc/passwd"));
    assertRefused(tar, "hard link");
    assertThat(dst.resolve("passwd")).doesNotExist();
    byte[] up = tar(t -> hardLink(t, "passwd", "../sentinel/x"));
    assertRefused(up, "hard link");
  }

  @Test
  void aHardLinkToAFileRestoredEarlierIsKept() throws IOException {
    byte[] tar = tar(t -> {
      file(t, "a", "same");
      hardLink(t, "b", "a");
    });
    TarImages.extract(new ByteArrayInputStream(tar), dst);
    assertThat(dst.resolve("b")).hasContent("same");
    assertThat(Files.isSameFile(dst.resolve("a"), dst.resolve("b"))).isTrue();
  }

  @Test
  void aDeviceEntryIsRefused() throws IOException {
    byte[] tar = tar(t -> {
      TarArchiveEntry e = new TarArchiveEntry("null", TarConstants.LF_CHR);
      t.putArchiveEntry(e);
      t.closeArchiveEntry();
    });
    assertRefused(tar, "not a regular file");
  }

  @Test
  void relativeLinksInsideTheTargetAreRestored() throws IOException {
    byte[] tar = tar(t -> {
      file(t, "ckpt.dmtcp", "image");
      dir(t, "sub/deeper/");
      link(t, "sub/deeper/latest", "../../ckpt.dmtcp");
      link(t, "sub/self", ".");
    });
    TarImages.extract(new ByteArrayInputStream(tar), dst);
    assertThat(dst.resolve("sub/deeper/latest")).hasContent("image");
    assertThat(Files.isSymbolicLink(dst.resolve("sub/self"))).isTrue();
  }

  @Test
  void aFileEntryReplacesALinkOfItsNameNotWhatTheLinkPointsAt() throws IOException {
    Path victim = Files.writeString(sentinel.resolve("victim"), "keep");
    Files.createDirectories(dst);
    Files.createSymbolicLink(dst.resolve("f"), victim);
    TarImages.extract(new ByteArrayInputStream(tar(t -> file(t, "f", "new"))), dst);
    assertThat(Files.isSymbolicLink(dst.resolve("f"))).isFalse();
    assertThat(dst.resolve("f")).hasContent("new");
    assertThat(victim).hasContent("keep");
  }

  private void assertRefused(byte[] tar, String why) throws IOException {
    assertThatThrownBy(() -> TarImages.extract(new ByteArrayInputStream(tar), dst))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("refusing tar entry")
        .hasMessageContaining(why);
    try (Stream<Path> s = Files.list(sentinel)) {
      assertThat(s.filter(p -> !p.getFileName().toString().equals("victim"))).isEmpty();
    }
    assertThat(tmp.resolve("owned")).doesNotExist();
  }

  private interface Body {
    void write(TarArchiveOutputStream t) throws IOException;
  }

  private static byte[] tar(Body body) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TarArchiveOutputStream t = new TarArchiveOutputStream(bytes)) {
      t.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      body.write(t);
    }
    return bytes.toByteArray();
  }

  private static void file(TarArchiveOutputStream t, String name, String content) throws IOException {
    byte[] b = content.getBytes(StandardCharsets.UTF_8);
    TarArchiveEntry e = new TarArchiveEntry(name);
    e.setSize(b.length);
    t.putArchiveEntry(e);
    t.write(b);
    t.closeArchiveEntry();
  }

  private static void dir(TarArchiveOutputStream t, String name) throws IOException {
    t.putArchiveEntry(new TarArchiveEntry(name));
    t.closeArchiveEntry();
  }

  private static void link(TarArchiveOutputStream t, String name, String target) throws IOException {
    TarArchiveEntry e = new TarArchiveEntry(name, TarConstants.LF_SYMLINK);
    e.setLinkName(target);
    t.putArchiveEntry(e);
    t.closeArchiveEntry();
  }

  private static void hardLink(TarArchiveOutputStream t, String name, String target) throws IOException {
    TarArchiveEntry e = new TarArchiveEntry(name, TarConstants.LF_LINK);
    e.setLinkName(target);
    t.putArchiveEntry(e);
    t.closeArchiveEntry();
  }
}
