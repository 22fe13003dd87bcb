package org.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract for checkpoint sets, in-process against a real tracker and four real peers:
 * {@code store --set E --part R --parts P} parts commit one by one and the set appears as one
 * version only with its last part; {@code versions --json} rows carry {@code "parts": P};
 * {@code fetch --part R} restores each part byte for byte; verify checks every part.
 */
class SetCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  @Test
  void aSetWithAPartMissingNeverAppears_aCompleteSetFetchesEveryPart() throws Exception {
    Path[] parts = new Path[3];
    for (int r = 0; r < 3; r++) {
      byte[] data = new byte[700_000 + r * 100_000];
      new Random(20 + r).nextBytes(data);
      System.arraycopy(new byte[200_000], 0, data, 0, 200_000); // a run the ranks share
      parts[r] = Files.write(dir.resolve("rank" + r + ".img"), data);
    }
    try (InProcessGrid grid = new InProcessGrid(dir.resolve("grid"), 4)) {
      String[] common = {"--app", "mpi", "--node", "job", "--redundancy", "code:2+1", "--encryption", "none"};
      InProcessGrid.Run p0 = grid.cairn(cat(new String[] {"store", parts[0].toString(), "--set", "e1", "--part", "0", "--parts", "3",
          "--json"}, common));
      assertThat(p0.exit()).as(p0.err()).isZero();
      JsonNode a0 = JSON.readTree(p0.out());
      assertThat(a0.get("set").asText()).isEqualTo("e1");
      assertThat(a0.get("partsCommitted").asInt()).isEqualTo(1);
      assertThat(a0.get("step").asLong()).isZero();
      InProcessGrid.Run p2 = grid.cairn(cat(new String[] {"store", parts[2].toString(), "--set", "e1", "--part", "2", "--parts", "3"},
          common));
      assertThat(p2.exit()).as(p2.err()).isZero();
      assertThat(p2.out()).contains("2 of 3 parts committed");

      InProcessGrid.Run none = grid.cairn("versions", "--app", "mpi", "--node", "job", "--json");
      assertThat(JSON.readTree(none.out())).as("a set with a part missing is no version").isEmpty();
      InProcessGrid.Run waiting = grid.cairn("versions", "--app", "mpi", "--node", "job");
      assertThat(waiting.out()).contains("no versions of mpi.job").contains("set e1: 2 of 3 parts committed since ");
      InProcessGrid.Run early = grid.cairn("fetch", "--app", "mpi", "--node", "job", "--part", "0", "-o", dir.resolve("x").toString());
      assertThat(early.exit()).isEqualTo(1);
      assertThat(dir.resolve("x")).doesNotExist();

      InProcessGrid.Run p1 = grid.cairn(cat(new String[] {"store", parts[1].toString(), "--set", "e1", "--part", "1", "--parts", "3"},
          common));
      assertThat(p1.exit()).as(p1.err()).isZero();
      assertThat(p1.out()).contains("set e1 complete: all 3 parts committed as mpi.job.1");

      assertThat(grid.cairn("versions", "--app", "mpi", "--node", "job").out()).as("a complete set waits for nothing")
          .doesNotContain("parts committed since");
      JsonNode rows = JSON.readTree(grid.cairn("versions", "--app", "mpi", "--node", "job", "--json").out());
      assertThat(rows).hasSize(1);
      assertThat(rows.get(0).get("parts").asInt()).isEqualTo(3);
      assertThat(rows.get(0).get("step").asLong()).isEqualTo(1);
      assertThat(rows.get(0).get("size").asLong()).isEqualTo(Files.size(parts[0]) + Files.size(parts[1]) + Files.size(parts[2]));
      for (int r = 0; r < 3; r++) {
        Path out = dir.resolve("restored" + r);
        InProcessGrid.Run f = grid.cairn("fetch", "--app", "mpi", "--node", "job", "--part", Integer.toString(r), "-o", out.toString());
        assertThat(f.exit()).as(f.err()).isZero();
        assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(parts[r]));
      }
      InProcessGrid.Run whole = grid.cairn("fetch", "--app", "mpi", "--node", "job", "-o", dir.resolve("whole").toString());
      assertThat(whole.exit()).isEqualTo(1);
      assertThat(whole.err()).contains("checkpoint set of 3 parts");

      InProcessGrid.Run verify = grid.cairn("verify", "--app", "mpi", "--json");
      assertThat(verify.exit()).as(verify.err()).isZero();
      JsonNode reports = JSON.readTree(verify.out());
      assertThat(reports).hasSize(3);
      for (int r = 0; r < 3; r++) {
        assertThat(reports.get(r).get("part").asInt()).isEqualTo(r);
        assertThat(reports.get(r).get("restorable").asBoolean()).isTrue();
      }

      InProcessGrid.Run usage = grid.cairn(cat(new String[] {"store", parts[0].toString(), "--set", "e2", "--part", "3", "--parts",
          "3"}, common));
      assertThat(usage.exit()).isEqualTo(2);
      assertThat(usage.err()).contains("outside 0..2");
    }
  }

  private static String[] cat(String[] a, String[] b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
