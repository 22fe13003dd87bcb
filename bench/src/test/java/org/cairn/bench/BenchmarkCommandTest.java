package org.cairn.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.cairn.cli.CairnCli;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchmarkCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path tmp;

  private String stdout;
  private String stderr;

  private int run(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      return CairnCli.run(args);
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
      stdout = out.toString(StandardCharsets.UTF_8);
      stderr = err.toString(StandardCharsets.UTF_8);
    }
  }

  private List<JsonNode> jsonLines() throws Exception {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : stdout.split("\n")) {
      if (!line.isBlank()) {
        lines.add(JSON.readTree(line));
      }
    }
    return lines;
  }

  @Test
  void erasure_printsJsonLinesWithStageAndRate() throws Exception {
    int code = run("benchmark", "erasure", "--data-shards", "4", "--parity-shards", "2", "--json",
        "--size", "8MiB", "--shard-size", "256KiB", "--seconds", "0.05");
    assertThat(code).as(stderr).isZero();
    List<JsonNode> lines = jsonLines();
    assertThat(lines).hasSize(9);
    for (JsonNode line : lines) {
      assertThat(line.get("stage").asText()).isEqualTo("erasure");
      assertThat(line.get("mbPerSec").asDouble()).isPositive();
    }
    assertThat(lines).anySatisfy(l -> {
      assertThat(l.get("codec").asText()).isEqualTo("code:4+2");
      assertThat(l.get("operation").asText()).isEqualTo("decode");
      assertThat(l.get("lostDataShards").asInt()).isEqualTo(2);
    });
    assertThat(lines).anySatisfy(l -> assertThat(l.get("codec").asText()).isEqualTo("cauchy:4+2"));
  }

  @Test
  void hashingAndPipeline_runOnAGivenDataFile() throws Exception {
    Path image = tmp.resolve("image.core");
    Files.write(image, MemoryImages.image(1, 3 * 1024 * 1024));
    assertThat(run("benchmark", "hashing", "--data-file", image.toString(), "--json", "--seconds", "0.05")).as(stderr).isZero();
    JsonNode hashing = jsonLines().get(0);
    assertThat(hashing.get("stage").asText()).isEqualTo("hashing");
    assertThat(hashing.get("mbPerSec").asDouble()).isPositive();

    assertThat(run("benchmark", "pipeline", "--data-file", image.toString(), "--threads", "2", "--chunk-size", "256KiB",
        "--json", "--seconds", "0.05")).as(stderr).isZero();
    List<JsonNode> lines = jsonLines();
    assertThat(lines).extracting(l -> l.get("operation").asText()).containsExactly("store", "fetch");
    assertThat(lines.get(0).get("ratio").asDouble()).isGreaterThan(1.0);
  }

  @Test
  void chunking_reportsDedupAcrossASeries() throws Exception {
    byte[] first = MemoryImages.image(2, 4 * 1024 * 1024);
    Path a = Files.write(tmp.resolve("a"), first);
    Path b = Files.write(tmp.resolve("b"), MemoryImages.successor(first, 0.1, 3));
    assertThat(run("benchmark", "chunking", "--data-file", a.toString(), "--data-file", b.toString(),
        "--chunk-size", "64KiB", "--json", "--seconds", "0.05")).as(stderr).isZero();
    JsonNode line = jsonLines().get(0);
    assertThat(line.get("images").asInt()).isEqualTo(2);
    assertThat(line.get("dedupRatio").asDouble()).isGreaterThan(1.5);
    assertThat(line.get("lastImageNewFraction").asDouble()).isBetween(0.0, 0.5);
  }

  @Test
  void compression_reportsRatios() throws Exception {
    assertThat(run("benchmark", "compression", "--compression", "zstd:1,none", "--size", "4MiB", "--json", "--seconds", "0.05"))
        .as(stderr).isZero();
    List<JsonNode> lines = jsonLines();
    assertThat(lines).extracting(l -> l.get("codec").asText()).containsExactly("zstd:1", "none");
    assertThat(lines.get(0).get("ratio").asDouble()).isGreaterThan(1.5);
    assertThat(lines.get(1).get("ratio").asDouble()).isEqualTo(1.0);
  }

  @Test
  void badInput_exitsWithUsageErrorNamingTheValue() {
    assertThat(run("benchmark", "sorting")).isEqualTo(2);
    assertThat(stderr).contains("unknown stage 'sorting'");
    assertThat(run("benchmark", "hashing", "--chunk-size", "100KiB")).isEqualTo(2);
    assertThat(stderr).contains("power of two");
    assertThat(run("benchmark", "erasure", "--data-shards", "250", "--parity-shards", "10")).isEqualTo(2);
    assertThat(stderr).contains("at most 256");
  }

  @Test
  void missingDataFile_failsWithAClearMessage() {
    assertThat(run("benchmark", "hashing", "--data-file", tmp.resolve("nope").toString())).isEqualTo(1);
    assertThat(stderr).contains("data file not found").contains("nope");
  }

  @Test
  void helpAndVersion_exitZero() {
    assertThat(run("--help")).isZero();
    assertThat(stdout).contains("benchmark").contains("--tracker");
    assertThat(run("--version")).isZero();
    assertThat(stdout).startsWith("cairn ");
    assertThat(run("benchmark", "--help")).isZero();
    assertThat(stdout).contains("hashing|compression|erasure|chunking|pipeline");
  }
}
