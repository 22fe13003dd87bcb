package org.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DMTCP checkpoint whose memory changed a little since the last one, stored with the defaults
 * (aligned chunks, aes-gcm, {@code --delta on}) in-process against a real tracker and peers: its
 * changed chunks are coded against the previous version's chunks at the same addresses (far fewer
 * bytes than {@code --delta off}), every version fetches byte for byte, verify reads and decodes
 * them, and deleting the version they were coded against loses nothing.
 */
class DeltaStoresTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long HEAP = 0x55dbd2c67000L;
  private static final long ARENA = 0x7f2c6c700000L;
  private static final long NEW_MAP = 0x7f2c60000000L;

  @TempDir
  Path dir;

  @Test
  void changedChunksAreCodedAgainstThePreviousVersion_fetchByteIdentical_andOutliveIt() throws Exception {
    byte[] heap = MemoryImages.image(41, 3 << 20);
    byte[] arena = MemoryImages.image(42, 2 << 20);
    Path v1 = Files.write(dir.resolve("v1.dmtcp"), dmtcp(new long[] {HEAP, ARENA}, heap, arena));
    // one checkpoint later: a few pages of each area rewritten, and a new mapping before the arena (later areas move in the file)
    byte[] heap2 = MemoryImages.successor(heap, 0.02, 43);
    byte[] arena2 = MemoryImages.successor(arena, 0.02, 44);
    Path v2 = Files.write(dir.resolve("v2.dmtcp"),
        dmtcp(new long[] {HEAP, NEW_MAP, ARENA}, heap2, MemoryImages.image(45, 256 << 10), arena2));
    String keys = dir.resolve("keys").toString();
    Path cache = dir.resolve("bases");
    String cacheBefore = System.getProperty("cairn.baseCache");
    System.setProperty("cairn.baseCache", cache.toString());
    try (InProcessGrid grid = new InProcessGrid(dir.resolve("grid"), 4)) {
      for (String app : new String[] {"sim", "plain"}) {
        for (Path v : new Path[] {v1, v2}) {
          if (v == v2) {
            // the host's copies of the first version's chunks are gone: the second store reads its bases from the grid
            assertThat(cache).isNotEmptyDirectory();
            org.apache.commons.io.FileUtils.cleanDirectory(cache.toFile());
          }
          InProcessGrid.Run s = grid.cairn("--key-dir", keys, "store", v.toString(), "--app", app, "--node", "n1", "--redundancy",
              "code:2+1", "--delta", app.equals("sim") ? "on" : "off");
          assertThat(s.exit()).as(s.err()).isZero();
        }
      }
      JsonNode sim = JSON.readTree(grid.cairn("versions", "--app", "sim", "--node", "n1", "--json").out());
      JsonNode plain = JSON.readTree(grid.cairn("versions", "--app", "plain", "--node", "n1", "--json").out());
      assertThat(sim.get(0).get("storedBytes").asLong()).as("the first version has nothing to be coded against")
          .isBetween(plain.get(0).get("storedBytes").asLong() * 9 / 10, plain.get(0).get("storedBytes").asLong() * 11 / 10);
      assertThat(sim.get(1).get("storedBytes").asLong()).as("the second, coded against the first")
          .isLessThan(plain.get(1).get("storedBytes").asLong() / 2); // the new mapping is new either way

      for (int step = 1; step <= 2; step++) {
        Path out = dir.resolve("out" + step);
        InProcessGrid.Run f = grid.cairn("--key-dir", keys, "fetch", "--app", "sim", "--node", "n1", "--step", Integer.toString(step),
            "-o", out.toString());
        assertThat(f.exit()).as(f.err()).isZero();
        assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(step == 1 ? v1 : v2));
      }
      InProcessGrid.Run rm = grid.cairn("rm", "--app", "sim", "--node", "n1", "--step", "1");
      assertThat(rm.exit()).as(rm.err()).isZero();
      InProcessGrid.Run census = grid.cairn("verify", "--app", "sim", "--json"); // as an operator runs it: holders asked, bases included
      assertThat(census.exit()).as(census.err() + census.out()).isZero();
      assertThat(JSON.readTree(census.out()).get(0).get("chunks").asInt())
          .isGreaterThan(JSON.readTree(grid.cairn("versions", "--app", "sim", "--node", "n1", "--json").out()).get(0).get("chunks").asInt());
      InProcessGrid.Run verify = grid.cairn("--key-dir", keys, "verify", "--app", "sim", "--read-data", "--json");
      assertThat(verify.exit()).as(verify.err() + verify.out()).isZero();
      JsonNode report = JSON.readTree(verify.out()).get(0);
      assertThat(report.get("restorable").asBoolean()).isTrue();
      assertThat(report.get("lost").asInt()).isZero();
      assertThat(report.get("chunks").asInt()).as("the version's chunks and the bases they need")
          .isGreaterThan(JSON.readTree(grid.cairn("versions", "--app", "sim", "--node", "n1", "--json").out()).get(0).get("chunks")
              .asInt());
      Path again = dir.resolve("again");
      InProcessGrid.Run f = grid.cairn("--key-dir", keys, "fetch", "--app", "sim", "--node", "n1", "-o", again.toString());
      assertThat(f.exit()).as(f.err()).isZero();
      assertThat(Files.readAllBytes(again)).as("the bases outlived the version that stored them").isEqualTo(Files.readAllBytes(v2));

      // a third checkpoint finds its bases on this host's disk (kept when the second store read them)
      Path v3 = Files.write(dir.resolve("v3.dmtcp"), dmtcp(new long[] {HEAP, NEW_MAP, ARENA}, MemoryImages.successor(heap2, 0.02, 46),
          MemoryImages.image(45, 256 << 10), MemoryImages.successor(arena2, 0.02, 47)));
      InProcessGrid.Run s3 = grid.cairn("--key-dir", keys, "store", v3.toString(), "--app", "sim", "--node", "n1", "--redundancy",
          "code:2+1");
      assertThat(s3.exit()).as(s3.err()).isZero();
      JsonNode rows = JSON.readTree(grid.cairn("versions", "--app", "sim", "--node", "n1", "--json").out());
      assertThat(rows.get(rows.size() - 1).get("storedBytes").asLong()).isLessThan(plain.get(1).get("storedBytes").asLong() / 2);
      Path out3 = dir.resolve("out3");
      org.apache.commons.io.FileUtils.cleanDirectory(cache.toFile()); // a restart elsewhere: bases from the grid
      InProcessGrid.Run f3 = grid.cairn("--key-dir", keys, "fetch", "--app", "sim", "--node", "n1", "-o", out3.toString());
      assertThat(f3.exit()).as(f3.err()).isZero();
      assertThat(Files.readAllBytes(out3)).isEqualTo(Files.readAllBytes(v3));
    } finally {
      if (cacheBefore == null) {
        System.clearProperty("cairn.baseCache");
      } else {
        System.setProperty("cairn.baseCache", cacheBefore);
      }
    }
  }

  @Test
  void aRestartWhereTheJobRan_takesTheChunksItStoredFromThisHost_andTheOthersFromTheGrid() throws Exception {
    byte[] heap = MemoryImages.image(51, 3 << 20);
    Path v1 = Files.write(dir.resolve("v1.dmtcp"), dmtcp(new long[] {HEAP, ARENA}, heap, MemoryImages.image(52, 2 << 20)));
    String keys = dir.resolve("keys").toString();
    Path cache = dir.resolve("here");
    String cacheBefore = System.getProperty("cairn.baseCache");
    System.setProperty("cairn.baseCache", cache.toString());
    try (InProcessGrid grid = new InProcessGrid(dir.resolve("grid"), 4)) {
      InProcessGrid.Run s = grid.cairn("--key-dir", keys, "store", v1.toString(), "--app", "sim", "--node", "n1", "--redundancy",
          "code:2+1");
      assertThat(s.exit()).as(s.err()).isZero();
      int chunks = JSON.readTree(grid.cairn("versions", "--app", "sim", "--node", "n1", "--json").out()).get(0).get("chunks").asInt();
      Path out = dir.resolve("out");
      InProcessGrid.Run here = grid.cairn("--key-dir", keys, "fetch", "--app", "sim", "--node", "n1", "-o", out.toString(), "--json");
      assertThat(here.exit()).as(here.err()).isZero();
      assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(v1));
      assertThat(JSON.readTree(here.out()).get("chunksFromThisHost").asInt()).as("of %d chunks", chunks).isPositive();

      System.setProperty("cairn.baseCache", dir.resolve("elsewhere").toString()); // a restart on another host
      InProcessGrid.Run there = grid.cairn("--key-dir", keys, "fetch", "--app", "sim", "--node", "n1", "-o", out.toString(), "--json");
      assertThat(there.exit()).as(there.err()).isZero();
      assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(v1));
      assertThat(JSON.readTree(there.out()).get("chunksFromThisHost").asInt()).isZero();
    } finally {
      if (cacheBefore == null) {
        System.clearProperty("cairn.baseCache");
      } else {
        System.setProperty("cairn.baseCache", cacheBefore);
      }
    }
  }

  @Test
  void eachPartOfASetIsCodedAgainstTheSamePartOfThePreviousSet_andFetchesByteIdentical() throws Exception {
    // two hosts' processes at the same addresses with different memory: a part coded against the other host's part saves nothing
    Path[][] rounds = new Path[2][2];
    for (int r = 0; r < 2; r++) {
      byte[] heap = MemoryImages.image(60 + r, 3 << 20);
      byte[] arena = MemoryImages.image(70 + r, 2 << 20);
      rounds[0][r] = Files.write(dir.resolve("e1-part" + r + ".dmtcp"), dmtcp(new long[] {HEAP, ARENA}, heap, arena));
      rounds[1][r] = Files.write(dir.resolve("e2-part" + r + ".dmtcp"), dmtcp(new long[] {HEAP, ARENA},
          MemoryImages.successor(heap, 0.02, 80 + r), MemoryImages.successor(arena, 0.02, 90 + r)));
    }
    String keys = dir.resolve("keys").toString();
    String cacheBefore = System.getProperty("cairn.baseCache");
    System.setProperty("cairn.baseCache", dir.resolve("bases").toString());
    try (InProcessGrid grid = new InProcessGrid(dir.resolve("grid"), 4)) {
      for (String app : new String[] {"sim", "plain"}) {
        for (int e = 0; e < 2; e++) {
          for (int r = 0; r < 2; r++) {
            InProcessGrid.Run s = grid.cairn("--key-dir", keys, "store", rounds[e][r].toString(), "--app", app, "--node", "job",
                "--set", "e" + (e + 1), "--part", Integer.toString(r), "--parts", "2", "--redundancy", "code:2+1", "--delta",
                app.equals("sim") ? "on" : "off");
            assertThat(s.exit()).as(s.err()).isZero();
          }
        }
      }
      JsonNode sim = JSON.readTree(grid.cairn("versions", "--app", "sim", "--node", "job", "--json").out());
      JsonNode plain = JSON.readTree(grid.cairn("versions", "--app", "plain", "--node", "job", "--json").out());
      assertThat(sim).hasSize(2);
      assertThat(sim.get(1).get("storedBytes").asLong()).as("the second set, each part coded against its own previous part")
          .isLessThan(plain.get(1).get("storedBytes").asLong() / 4);
      for (int r = 0; r < 2; r++) {
        Path out = dir.resolve("out-part" + r);
        InProcessGrid.Run f = grid.cairn("--key-dir", keys, "fetch", "--app", "sim", "--node", "job", "--part", Integer.toString(r), "-o",
            out.toString());
        assertThat(f.exit()).as(f.err()).isZero();
        assertThat(Files.readAllBytes(out)).as("part " + r).isEqualTo(Files.readAllBytes(rounds[1][r]));
      }
    } finally {
      if (cacheBefore == null) {
        System.clearProperty("cairn.baseCache");
      } else {
        System.setProperty("cairn.baseCache", cacheBefore);
      }
    }
  }

  private static byte[] dmtcp(long[] addresses, byte[]... areas) {
    return MemoryImages.dmtcp(addresses, areas);
  }
}
