package org.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client-side encryption's contract, end to end in-process against a real tracker and five real peers: after a
 * default {@code cairn store} of a file full of text markers, no peer file and no tracker file holds
 * any marker; fetch with the right key restores the file, and with a wrong or missing key fails with
 * a message saying which key is needed, leaving no output file.
 */
class EncryptionCommandsTest {
  private static final String[] MARKERS = {"CAIRN-SECRET-MARKER-0f3a9c", "heat equation state of rank 17", "PASSWORD=hunter2"};
  private static final String CONTROL = "PLAINTEXT-CONTROL-MARKER-77e1";

  @TempDir
  Path dir;

  @Test
  void aDefaultStore_leavesNoMarkerOnAnyPeerOrTrackerFile_andOnlyTheRightKeyFetchesIt() throws Exception {
    Path image = dir.resolve("ckpt.img");
    Files.write(image, imageWith(MARKERS, 3_000_000, 1));
    Path control = dir.resolve("control.img");
    Files.write(control, imageWith(new String[] {CONTROL}, 300_000, 2));
    Path keys = dir.resolve("keys");
    Path restored = dir.resolve("restored.img");
    String keyId;
    try (InProcessGrid grid = new InProcessGrid(dir.resolve("grid"), 5)) {
      InProcessGrid.Run store = grid.cairn("--key-dir", keys.toString(), "store", image.toString(), "--app", "heat", "--node", "n1");
      assertThat(store.exit()).as(store.err()).isZero();
      assertThat(store.err()).contains("WARNING").contains(keys.resolve("heat.json").toString())
          .contains("cannot be restored by anyone");
      keyId = fingerprintIn(grid.cairn("--key-dir", keys.toString(), "key", "list").out());
      assertThat(Files.getPosixFilePermissions(keys.resolve("heat.json"))).extracting(Object::toString)
          .containsExactlyInAnyOrder("OWNER_READ", "OWNER_WRITE");

      InProcessGrid.Run again = grid.cairn("--key-dir", keys.toString(), "store", image.toString(), "--app", "heat", "--node", "n1",
          "--json");
      assertThat(again.exit()).as(again.err()).isZero();
      assertThat(again.err()).as("the key is made once").doesNotContain("WARNING");
      assertThat(again.out()).as("dedup works within the app").contains("\"newChunks\":0");

      // positive control: a plaintext store by explicit choice does put its marker on the donors' disks
      InProcessGrid.Run plain = grid.cairn("store", control.toString(), "--app", "open", "--node", "n1", "--encryption", "none",
          "--compression", "none");
      assertThat(plain.exit()).as(plain.err()).isZero();

      InProcessGrid.Run fetch = grid.cairn("--key-dir", keys.toString(), "fetch", "--app", "heat", "--node", "n1", "-o",
          restored.toString());
      assertThat(fetch.exit()).as(fetch.err()).isZero();
      assertThat(Files.readAllBytes(restored)).isEqualTo(Files.readAllBytes(image));

      Path otherKeys = dir.resolve("other-keys");
      assertThat(grid.cairn("--key-dir", otherKeys.toString(), "key", "create", "--app", "heat").exit()).isZero();
      String otherId = fingerprintIn(grid.cairn("--key-dir", otherKeys.toString(), "key", "list").out());
      Path wrong = dir.resolve("wrong.img");
      InProcessGrid.Run bad = grid.cairn("--key-dir", otherKeys.toString(), "fetch", "--app", "heat", "--node", "n1", "--step", "1",
          "-o", wrong.toString());
      assertThat(bad.exit()).isEqualTo(1);
      assertThat(bad.err().strip()).isEqualTo("cairn: fetch failed: version heat/n1 step 1 was encrypted with key " + keyId
          + "; the key in " + otherKeys.resolve("heat.json") + " is " + otherId
          + " (import the right one with `cairn key import --app heat KEYFILE --force`)");
      assertThat(wrong).doesNotExist();

      Path none = dir.resolve("none.img");
      InProcessGrid.Run missing = grid.cairn("--key-dir", dir.resolve("empty").toString(), "fetch", "--app", "heat", "--node", "n1",
          "-o", none.toString());
      assertThat(missing.exit()).isEqualTo(1);
      assertThat(missing.err()).contains("is encrypted with key " + keyId).contains("no key for app heat")
          .contains("cairn key import --app heat");
      assertThat(none).doesNotExist();
      try (Stream<Path> left = Files.list(dir)) {
        assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains("cairn-partial"));
      }

      InProcessGrid.Run keyless = grid.cairn("--key-dir", dir.resolve("empty").toString(), "verify", "--app", "heat", "--node", "n1",
          "--read-data");
      assertThat(keyless.exit()).as("verify --read-data without the key checks the pieces as repair does: " + keyless.out()).isZero();
      assertThat(keyless.err()).as("and says why it did not open them")
          .contains("note: version heat/n1 step ").contains(" is encrypted with key " + keyId).contains("without opening them");

      InProcessGrid.Run verify = grid.cairn("verify", "--app", "heat", "--node", "n1", "--read-data");
      assertThat(verify.exit()).as("verify --read-data without the key checks the pieces as repair does: " + verify.out()).isZero();
    }
    // everything the tracker and the peers wrote is on disk now (stores closed, WALs and segments flushed)
    List<Path> files = filesUnder(dir.resolve("grid"));
    assertThat(files).as("peer and tracker files").hasSizeGreaterThan(10);
    for (Path f : files) {
      byte[] bytes = Files.readAllBytes(f);
      for (String marker : MARKERS) {
        assertThat(indexOf(bytes, marker.getBytes(StandardCharsets.UTF_8))).as(marker + " in " + f).isEqualTo(-1);
      }
    }
    assertThat(files.stream().filter(f -> f.startsWith(dir.resolve("grid").resolve("peer0")) || f.toString().contains("peer"))
        .anyMatch(f -> contains(f, CONTROL))).as("the scan sees plaintext when there is some").isTrue();
  }

  private static String fingerprintIn(String keyList) {
    String[] words = keyList.strip().split("\\s+");
    assertThat(words[0]).isEqualTo("heat");
    return words[1];
  }

  /** Marker lines between random bytes, so chunks are neither all text nor all noise. */
  private static byte[] imageWith(String[] markers, int size, long seed) {
    Random random = new Random(seed);
    byte[] out = new byte[size];
    int at = 0;
    while (at < size) {
      byte[] m = (markers[random.nextInt(markers.length)] + "\n").getBytes(StandardCharsets.UTF_8);
      int n = Math.min(m.length, size - at);
      System.arraycopy(m, 0, out, at, n);
      at += n;
      int noise = Math.min(random.nextInt(64), size - at);
      for (int i = 0; i < noise; i++) {
        out[at++] = (byte) random.nextInt(256);
      }
    }
    return out;
  }

  private static List<Path> filesUnder(Path root) throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(Files::isRegularFile).forEach(out::add);
    }
    return out;
  }

  private static boolean contains(Path f, String marker) {
    try {
      return indexOf(Files.readAllBytes(f), marker.getBytes(StandardCharsets.UTF_8)) >= 0;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
