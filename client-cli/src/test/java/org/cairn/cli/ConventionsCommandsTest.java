package org.cairn.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Random;
import org.cairn.cli.command.FetchCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI conventions against a real tracker and peers: a fetched file gets the mode a new
 * file gets here (not the temporary file's 0600), rm and policy speak --json, -q and -v are global.
 */
class ConventionsCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  @Test
  void fetchedFilesHaveTheUsualMode_rmAndPolicySpeakJson_quietAndVerboseAreGlobal() throws Exception {
    byte[] data = new byte[300_000];
    new Random(5).nextBytes(data);
    Path image = Files.write(dir.resolve("ckpt.img"), data);
    try (InProcessGrid grid = new InProcessGrid(dir.resolve("grid"), 3)) {
      InProcessGrid.Run store = grid.cairn("-q", "store", image.toString(), "--app", "heat", "--node", "n1", "--redundancy", "code:2+1",
          "--encryption", "none");
      assertThat(store.exit()).as(store.err()).isZero();
      assertThat(store.out()).as("restic's split: new, compressed, with redundancy")
          .matches("(?s)stored heat\\.n1\\.1: .* in \\d+ chunks, \\d+ new \\(.*, .* compressed, .* sent with redundancy to 3 hosts\\) in .*");
      Path out = dir.resolve("restored.img");
      InProcessGrid.Run fetch = grid.cairn("-v", "fetch", "--app", "heat", "--node", "n1", "-o", out.toString());
      assertThat(fetch.exit()).as(fetch.err()).isZero();
      assertThat(Files.readAllBytes(out)).isEqualTo(data);
      assertThat(Files.getPosixFilePermissions(out)).isEqualTo(FetchCommand.newFileMode());
      assertThat(FetchCommand.newFileMode()).contains(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

      InProcessGrid.Run nodir = grid.cairn("fetch", "--app", "heat", "--node", "n1", "-o", dir.resolve("nodir/x.img").toString());
      assertThat(nodir.exit()).isEqualTo(1);
      assertThat(nodir.err().strip()).isEqualTo("cairn: fetch failed: cannot write " + dir.resolve("nodir/x.img") + ": no such directory "
          + dir.resolve("nodir"));

      assertThat(grid.cairn("store", image.toString(), "--app", "heat", "--node", "n1", "--redundancy", "code:2+1", "--encryption",
          "none").exit()).isZero();
      InProcessGrid.Run dry = grid.cairn("policy", "set", "--app", "heat", "--folder", "replace", "--dry-run", "--json");
      assertThat(dry.exit()).as(dry.err()).isZero();
      JsonNode would = JSON.readTree(dry.out()).get("wouldDelete");
      assertThat(would).hasSize(1);
      assertThat(would.get(0).get("step").asLong()).as("the older of two; the latest is kept").isEqualTo(1);
      InProcessGrid.Run dryText = grid.cairn("policy", "set", "--app", "heat", "--folder", "purge-after=1d", "--dry-run");
      assertThat(dryText.out()).contains("0 versions of heat would be deleted under purge-after=1d (dry run: nothing changed)");

      InProcessGrid.Run policy = grid.cairn("policy", "get", "--app", "heat", "--json");
      assertThat(policy.exit()).as(policy.err()).isZero();
      assertThat(JSON.readTree(policy.out()).get("folder").asText()).as("a dry run changes nothing").isEqualTo("keep-all");
      assertThat(JSON.readTree(grid.cairn("versions", "--app", "heat", "--node", "n1", "--json").out())).hasSize(2);
      InProcessGrid.Run rm = grid.cairn("rm", "--app", "heat", "--node", "n1", "--step", "1", "--json");
      assertThat(rm.exit()).as(rm.err()).isZero();
      JsonNode r = JSON.readTree(rm.out());
      assertThat(r.get("deleted").asBoolean()).isTrue();
      assertThat(r.get("step").asLong()).isEqualTo(1);
    }
  }
}
