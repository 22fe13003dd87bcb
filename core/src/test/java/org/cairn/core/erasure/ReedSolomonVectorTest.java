package org.cairn.core.erasure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Byte compatibility with the reference construction: every {@code *.json} vector in the directory
 * named by {@code -Dcairn.rs.vectors} (default: the copies in test resources) must encode to the
 * same parity and decode back from any m shards.
 */
class ReedSolomonVectorTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TestFactory
  Stream<DynamicTest> everyVectorMatches() throws IOException, URISyntaxException {
    Path dir = vectorDirectory();
    List<Path> files = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().forEach(files::add);
    }
    assertThat(files).as("vector files in %s", dir).isNotEmpty();
    return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> check(f)));
  }

  private static Path vectorDirectory() throws URISyntaxException {
    String prop = System.getProperty("cairn.rs.vectors");
    if (prop != null && !prop.isBlank()) {
      // Tests run in core/; a relative path is usually meant from where Maven was started (the
      // project root, which the build passes as cairn.root).
      Path p = Paths.get(prop);
      String root = System.getProperty("cairn.root");
      if (!p.isAbsolute() && !Files.isDirectory(p) && root != null) {
        p = Paths.get(root).resolve(prop);
      }
      assertThat(p).as("-Dcairn.rs.vectors=%s", prop).isDirectory();
      return p;
    }
    URL url = ReedSolomonVectorTest.class.getResource("/rs-vectors");
    assertThat(url).as("test resource rs-vectors").isNotNull();
    return Paths.get(url.toURI());
  }

  private static void check(Path file) throws IOException {
    JsonNode v = JSON.readTree(file.toFile());
    int m = v.get("dataShards").asInt();
    int k = v.get("parityShards").asInt();
    int size = v.get("shardSize").asInt();
    JsonNode shardsNode = v.get("shards");
    assertThat(shardsNode.size()).as("shards in %s", file).isEqualTo(m + k);
    byte[][] expected = new byte[m + k][];
    for (int i = 0; i < m + k; i++) {
      expected[i] = HexFormat.of().parseHex(shardsNode.get(i).asText());
      assertThat(expected[i]).hasSize(size);
    }

    ReedSolomon rs = new ReedSolomon(m, k);
    byte[][] shards = new byte[m + k][size];
    for (int i = 0; i < m; i++) {
      shards[i] = expected[i].clone();
    }
    rs.encodeParity(shards, 0, size);
    for (int i = 0; i < m + k; i++) {
      assertThat(shards[i]).as("%s shard %d", file.getFileName(), i).isEqualTo(expected[i]);
    }

    // Lose the first k shards (all data when k >= m), then the last k, and rebuild.
    for (int pattern = 0; pattern < 2; pattern++) {
      boolean[] present = new boolean[m + k];
      byte[][] damaged = new byte[m + k][];
      for (int i = 0; i < m + k; i++) {
        boolean lost = pattern == 0 ? i < k : i >= m;
        present[i] = !lost;
        damaged[i] = lost ? new byte[size] : expected[i].clone();
      }
      rs.reconstruct(damaged, present, 0, size);
      for (int i = 0; i < m + k; i++) {
        assertThat(damaged[i]).as("%s rebuilt shard %d (pattern %d)", file.getFileName(), i, pattern).isEqualTo(expected[i]);
      }
    }
  }
}
