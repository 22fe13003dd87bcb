package org.cairn.tracker.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkRecordCodecTest {
  private static final ChunkRecord FULL = new ChunkRecord(Arrays.asList("peer-a", null, "peer-c", "peer-d", "peer-é"), 1_572_864L, 3,
      "code:3+2", "jobhost-7", List.of("00000001", "0000ab02", "00000003", "00000004", "00000005"),
      "9f".repeat(32));

  @Test
  void aRecordReadsBackAsWrittenInBothForms() throws Exception {
    assertThat(ChunkRecord.decode(FULL.encode())).isEqualTo(FULL);
    ChunkRecord sparse = new ChunkRecord(List.of("p1"), 10, 0, null, null, null, null);
    assertThat(ChunkRecord.decode(sparse.encode())).isEqualTo(sparse);
    // records written before the binary form are JSON, and still read
    byte[] json = org.cairn.core.api.TrackerHttp.JSON.writeValueAsBytes(FULL);
    assertThat(ChunkRecord.decode(json)).isEqualTo(FULL);
    assertThat(FULL.encode().length).as("smaller than the JSON").isLessThan(json.length * 3 / 5);
  }

  @Test
  void damagedRecordsAreRefusedWithAReason() {
    byte[] b = FULL.encode();
    assertThatThrownBy(() -> ChunkRecord.decode(Arrays.copyOf(b, b.length - 3))).isInstanceOf(IOException.class)
        .hasMessageContaining("truncated");
    byte[] longer = Arrays.copyOf(b, b.length + 1);
    assertThatThrownBy(() -> ChunkRecord.decode(longer)).hasMessageContaining("after its end");
    byte[] other = b.clone();
    other[0] = 7;
    assertThatThrownBy(() -> ChunkRecord.decode(other)).hasMessageContaining("unknown form");
  }
}
