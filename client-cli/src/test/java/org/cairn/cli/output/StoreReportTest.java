package org.cairn.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.cairn.client.store.StoreOutcome;
import org.cairn.core.api.catalog.CommitRequest;
import org.junit.jupiter.api.Test;

class StoreReportTest {
  private static StoreOutcome result(CommitRequest.Answer set, long recordBytes) {
    return new StoreOutcome("app", "n", set == null ? 7 : 0, 4_000_000, 4, 2, 3_000_000, 0.5, List.of("p1", "p2"),
        List.of("app.n.5"), List.of(), set, 2_000_000, 1_000_000, recordBytes);
  }

  private static String print(StoreOutcome res, boolean json, Integer part) throws Exception {
    StringWriter s = new StringWriter();
    StoreReport.print(new PrintWriter(s), json, res, "pessimistic", part);
    return s.toString();
  }

  @Test
  void json_namesEveryFigure_andLeavesOutWhatTheStoreDoesNotHave() throws Exception {
    JsonNode j = Json.MAPPER.readTree(print(result(null, -1), true, null));
    assertThat(j.get("step").asLong()).isEqualTo(7);
    assertThat(j.get("newBytes").asLong()).isEqualTo(2_000_000);
    assertThat(j.get("compressedBytes").asLong()).isEqualTo(1_000_000);
    assertThat(j.get("sentBytes").asLong()).isEqualTo(3_000_000);
    assertThat(j.get("mbPerSec").asDouble()).isEqualTo(8.0);
    assertThat(j.get("write").asText()).isEqualTo("pessimistic");
    assertThat(j.get("replaced").get(0).asText()).isEqualTo("app.n.5");
    assertThat(j.has("recordBytes")).as("an agent stores the record after answering").isFalse();
    assertThat(j.has("set")).isFalse();
    assertThat(j.has("part")).isFalse();

    JsonNode withRecord = Json.MAPPER.readTree(print(result(null, 90_000), true, null));
    assertThat(withRecord.get("recordBytes").asLong()).isEqualTo(90_000);
  }

  @Test
  void json_readsBackIntoTheRecord_asTheBenchmarkReadsAStoreProcessesOutput() throws Exception {
    StoreReport back = new com.fasterxml.jackson.databind.ObjectMapper().readValue(print(result(null, -1), true, null), StoreReport.class);
    assertThat(back).isEqualTo(StoreReport.of(result(null, -1), "pessimistic", null));
    assertThat(back.recordBytes()).isNull();
    assertThat(back.size()).isEqualTo(4_000_000);
  }

  @Test
  void aPartOfASet_saysWhichPartAndHowManyAreCommitted() throws Exception {
    CommitRequest.Answer set = new CommitRequest.Answer("app", "n", 0, "epoch-3", 4, 2);
    JsonNode j = Json.MAPPER.readTree(print(result(set, 0), true, 1));
    assertThat(j.get("set").asText()).isEqualTo("epoch-3");
    assertThat(j.get("part").asInt()).isEqualTo(1);
    assertThat(j.get("parts").asInt()).isEqualTo(4);
    assertThat(j.get("partsCommitted").asInt()).isEqualTo(2);
    assertThat(print(result(set, 0), false, 1)).contains("stored part 1 of set epoch-3 of app.n")
        .contains("set epoch-3: 2 of 4 parts committed");
  }

  @Test
  void text_isOneLine_andALinePerReplacedVersion() throws Exception {
    String text = print(result(null, 0), false, null);
    assertThat(text.lines().toList()).hasSize(2);
    assertThat(text).startsWith("stored app.n.7: ").contains("4 chunks, 2 new").contains("to 2 hosts").contains("  replaced app.n.5");
  }
}
