package org.cairn.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.assertj.core.api.SoftAssertions;
import org.cairn.it.MiniGrid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory version that escapes its target, restored through the real CLI.
 *
 * <p><b>Attack:</b> a tar holding a symlink {@code d -> OUTSIDE} and then a file {@code d/x} (each
 * entry's name stays inside the target; the file is written through the link). The CLI never makes
 * such a tar from a real directory, so it is stored as a file version, and a man in the middle on a
 * plain-HTTP grid ({@link TrackerProxy}) relabels that version's manifest a directory checkpoint;
 * the victim restores it with {@code cairn fetch --dir TARGET}.
 *
 * <p><b>Defence:</b> extraction refuses an entry whose path runs through a symlink (or a relabelled
 * manifest is refused before), with a clear error.
 *
 * <p><b>Nothing lost:</b> nothing is written in OUTSIDE, which keeps exactly the file it had, and no
 * TARGET is left behind.
 */
class TarEscapeIT {
  @TempDir
  Path root;

  @Test
  void aDirectoryVersionCannotWriteOutsideItsTarget() throws Exception {
    try (MiniGrid grid = new MiniGrid(root, Duration.ofMillis(500))) {
      Hostile.startGrid(grid, root, 5, Hostile.plain(grid));
      Path clientFile = Hostile.tokenFile(root, "client", Hostile.token(grid, "--role", "client", "--apps", "tree"));
      Path outside = Files.createDirectories(root.resolve("OUTSIDE"));
      Files.writeString(outside.resolve("keep"), "untouched");
      Path tar = root.resolve("escape.tar");
      try (OutputStream f = Files.newOutputStream(tar); TarArchiveOutputStream t = new TarArchiveOutputStream(f, "UTF-8")) {
        TarArchiveEntry link = new TarArchiveEntry("d", TarConstants.LF_SYMLINK);
        link.setLinkName(outside.toAbsolutePath().toString());
        t.putArchiveEntry(link);
        t.closeArchiveEntry();
        byte[] x = "escaped".getBytes(StandardCharsets.US_ASCII);
        TarArchiveEntry file = new TarArchiveEntry("d/x");
        file.setSize(x.length);
        t.putArchiveEntry(file);
        t.write(x);
        t.closeArchiveEntry();
      }
      MiniGrid.Cli store = grid.cliAs(clientFile, "store", tar.toString(), "--app", "tree", "--node", "n1");
      assertThat(store.exit()).as(store.stdout() + store.stderr()).isZero();

      try (TrackerProxy proxy = TrackerProxy.plain(grid.trackerUrl(), m -> {
        m.put("kind", "dir");
        return true;
      })) {
        Path target = root.resolve("TARGET");
        MiniGrid.Cli fetch = Hostile.cliAt(grid, proxy.url(), clientFile, "fetch", "--app", "tree", "--node", "n1", "--dir",
            target.toString());
        System.out.println("TarEscapeIT: fetch --dir through the relabelling proxy: exit " + fetch.exit() + "\n" + fetch.stderr());
        assertThat(proxy.rewritten()).as("the proxy relabelled the manifest (requests: %s)", proxy.seen()).isPositive();
        SoftAssertions softly = new SoftAssertions();
        try (Stream<Path> inOutside = Files.list(outside)) {
          softly.assertThat(inOutside.map(p -> p.getFileName().toString()).toList()).as("OUTSIDE after the restore").containsExactly("keep");
        }
        softly.assertThat(fetch.exit()).as("the restore fails").isNotZero();
        softly.assertThat(fetch.stderr().lines().filter(l -> !l.isBlank()).count()).as("with one clear error: %s", fetch.stderr())
            .isBetween(1L, 3L);
        softly.assertThat(Files.exists(target)).as("no TARGET left behind").isFalse();
        softly.assertAll();
      }
    }
  }
}
