package org.cairn.core.erasure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CodingSummaryTest {
  @Test
  void oneCoding_isItsSpec() {
    assertThat(CodingSummary.of(List.of("code:4+2", "code:4+2"))).isEqualTo(new CodingSummary("code:4+2", null));
    assertThat(CodingSummary.of(List.of())).isEqualTo(new CodingSummary(null, null));
  }

  @Test
  void mixedCodings_nameTheWeakest_fewestLossesFirst_thenTheLargerM() {
    assertThat(CodingSummary.of(List.of("code:4+2", "code:2+1", "replicate:3"))).isEqualTo(new CodingSummary("mixed", "code:2+1"));
    // equal tolerance (2 losses): 4+2 needs more live hosts than 3+2, so it is the weaker
    assertThat(CodingSummary.of(List.of("code:3+2", "code:4+2"))).isEqualTo(new CodingSummary("mixed", "code:4+2"));
    assertThat(CodingSummary.of(List.of("code:3+2", "code:4+2")).toString()).isEqualTo("mixed (weakest code:4+2)");
  }

  @Test
  void aChunkTheIndexLost_isWeakestOfAll() {
    assertThat(CodingSummary.of(Arrays.asList("code:4+2", null))).isEqualTo(new CodingSummary("mixed", "lost"));
    assertThat(CodingSummary.of(Arrays.asList((String) null))).isEqualTo(new CodingSummary("lost", "lost"));
  }
}
