package org.cairn.cli.condor;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CairnUrlTest {
  @Test
  void aPlainUrlNamesTheNodeAndNoStep() {
    assertThat(CairnUrl.parse("cairn://sim/rank0")).isEqualTo(new CairnUrl("sim", "rank0", 0, false));
    assertThat(CairnUrl.parse("CAIRN://sim/out/result.dat")).isEqualTo(new CairnUrl("sim", "out+result.dat", 0, false));
  }

  @Test
  void htcondorsCheckpointLayoutNamesAStepPerCheckpointAndANodePerFile() {
    CairnUrl u = CairnUrl.parse("cairn://sim/ckpt/submit.example.org_12.0_1704487782/0003/state/rank0.img");
    assertThat(u).isEqualTo(new CairnUrl("sim", "ckpt+submit.example.org_12.0_1704487782+state+rank0.img", 4, true));
    assertThat(CairnUrl.parse("cairn://sim/ckpt//submit.example.org_12.0_1704487782/0003/state/rank0.img"))
        .as("HTCondor's extra '/' on download").isEqualTo(u);
    assertThat(CairnUrl.parse("cairn://sim/submit.example.org_12.0_1704487782/0000/f").step()).isEqualTo(1);
    assertThat(CairnUrl.parse("cairn://sim/ckpt/submit.example.org_12.0_1704487782/0007/_condor_checkpoint_MANIFEST.0007").node())
        .isEqualTo("ckpt+submit.example.org_12.0_1704487782+_condor_checkpoint_MANIFEST");
    assertThat(CairnUrl.parse("cairn://sim/results/2024/data.txt").checkpoint()).as("a number not after a job id").isFalse();
  }

  @Test
  void namesOutsideTheNodeAlphabetAreEncodedSoTwoPathsNeverShareANode() {
    assertThat(CairnUrl.parse("cairn://a/my file+x@h").node()).isEqualTo("my++20file++2Bx++40h");
    Random random = new Random(66);
    String alphabet = "ab/+ .-_@é";
    Set<String> paths = new HashSet<>();
    Set<String> nodes = new HashSet<>();
    for (int i = 0; i < 20_000; i++) {
      StringBuilder b = new StringBuilder();
      for (int j = 1 + random.nextInt(6); j > 0; j--) {
        b.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      List<String> segments = List.of(b.toString().split("/+"));
      if (segments.stream().anyMatch(s -> s.isEmpty() || s.equals(".") || s.equals(".."))) {
        continue;
      }
      if (paths.add(String.join("/", segments))) {
        assertThat(nodes.add(CairnUrl.node(segments))).as("node of %s", segments).isTrue();
      }
    }
  }

  @Test
  void urlsThePluginCannotUseAreRefusedInOneLine() {
    for (String bad : List.of("http://x/y", "cairn://", "cairn://app", "cairn://app/", "cairn://.app/n", "cairn://a pp/n", "cairn://app/../n",
        "cairn://app/a/./b", "cairn://app/a\nb", "cairn://app/" + "x".repeat(129))) {
      assertThatThrownBy(() -> CairnUrl.parse(bad)).as(bad).isInstanceOf(CairnUrl.BadUrl.class).hasMessageStartingWith("cannot use ")
          .hasMessageNotContaining("\n" + "b");
    }
  }
}
