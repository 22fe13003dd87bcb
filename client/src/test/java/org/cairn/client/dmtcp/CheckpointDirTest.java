package org.cairn.client.dmtcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which generations of a DMTCP checkpoint directory are new, as a restarted computation writes them. */
class CheckpointDirTest {
  @TempDir
  Path dir;

  @Test
  void aGenerationRewrittenByARunRestartedFromAnOlderOne_isNewAgain_andStagesItsOwnScript() throws Exception {
    write("c1", 2, "script of the first run's generation 2", 1_000);
    CheckpointDir ckpt = new CheckpointDir(dir);
    assertThat(ckpt.newlyCompleted()).as("an earlier run's generation counts as seen").isEmpty();

    write("c1", 3, "first run's generation 3", 2_000);
    List<CheckpointDir.Generation> first = ckpt.newlyCompleted();
    assertThat(first).extracting(CheckpointDir.Generation::number).containsExactly(3);
    Path staged = ckpt.stage(first.get(0));
    assertThat(ckpt.newlyCompleted()).as("staging changes nothing").isEmpty();

    // requeued, restarted from generation 2 (the 3rd was never committed): DMTCP writes number 3 again
    Files.delete(dir.resolve("dmtcp_restart_script_c1_00003.sh"));
    write("c1", 3, "second run's generation 3", 3_000);
    List<CheckpointDir.Generation> again = ckpt.newlyCompleted();
    assertThat(again).extracting(CheckpointDir.Generation::number).containsExactly(3);
    ckpt.stage(again.get(0));
    assertThat(Files.readString(staged.resolve(CheckpointDir.SCRIPT_IN_VERSION))).isEqualTo("second run's generation 3");
  }

  private void write(String computation, int number, String script, long mtime) throws Exception {
    Path images = Files.createDirectories(dir.resolve(String.format("ckpt_%s_%05d", computation, number)));
    Files.writeString(images.resolve("ckpt_prog_" + computation + ".dmtcp"), "image " + number);
    Path s = Files.writeString(dir.resolve(String.format("dmtcp_restart_script_%s_%05d.sh", computation, number)), script);
    Files.setLastModifiedTime(s, FileTime.fromMillis(mtime));
  }
}
