package org.cairn.tracker.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.manifest.Manifest;
import org.junit.jupiter.api.Test;

/**
 * Chunks coded against a base: the base holds a reference per chunk coded against it, so deleting
 * the version that stored the base keeps it while a later version needs it; a reader is told where
 * the bases are; a base that is not held, or is itself coded against another, is refused.
 */
class DeltaBasesTest extends CatalogFixture {
  @Test
  void aBaseOutlivesTheVersionThatStoredIt_whileAChunkCodedAgainstItIsHeld() throws IOException {
    long v1 = commit(List.of("b", "same"), Map.of("b", "", "same", ""), Map.of());
    long v2 = commit(List.of("x", "same"), Map.of("x", "b"), Map.of());
    assertThat(catalog.reads().chunk("heat", id("b")).refs()).as("one for v1, one for x").isEqualTo(2);
    assertThat(catalog.reads().chunk("heat", id("x")).base()).isEqualTo(id("b").hex());

    VersionReads.Located located = catalog.reads().manifest("heat", "n1", v2);
    assertThat(located.chunks()).as("the version's chunks, then the bases they need").containsKeys(id("x"), id("same"), id("b"));
    assertThat(catalog.reads().listed("heat", "n1").get(1).chunks()).as("a version's status counts its bases").contains(id("b"));

    assertThat(catalog.delete("heat", "n1", v1)).isTrue();
    assertThat(catalog.reads().chunk("heat", id("b"))).as("x still needs it").isNotNull();
    assertThat(catalog.reads().chunk("heat", id("b")).refs()).isEqualTo(1);
    assertThat(catalog.delete("heat", "n1", v2)).isTrue();
    assertThat(catalog.reads().chunk("heat", id("x"))).isNull();
    assertThat(catalog.reads().chunk("heat", id("b"))).as("released with the last chunk coded against it").isNull();
    assertThat(catalog.reads().chunk("heat", id("same"))).isNull();
  }

  @Test
  void aVersionThatAlsoReferencesItsBase_countsBoth() throws IOException {
    commit(List.of("b"), Map.of("b", ""), Map.of());
    long v2 = commit(List.of("b", "x"), Map.of("x", "b"), Map.of()); // b unchanged at one address, x coded against it
    assertThat(catalog.reads().chunk("heat", id("b")).refs()).isEqualTo(3);
    assertThat(catalog.delete("heat", "n1", v2)).isTrue();
    assertThat(catalog.reads().chunk("heat", id("b")).refs()).isEqualTo(1);
  }

  @Test
  void aBaseNotHeld_orCodedAgainstAnother_isRefused_andNothingIsCommitted() throws IOException {
    commit(List.of("b"), Map.of("b", ""), Map.of());
    commit(List.of("x"), Map.of("x", "b"), Map.of());
    assertThatThrownBy(() -> commit(List.of("y"), Map.of("y", "nosuch"), Map.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not hold");
    assertThatThrownBy(() -> commit(List.of("z"), Map.of("z", "x"), Map.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("itself coded against");
    assertThat(catalog.reads().chunk("heat", id("y"))).isNull();
    assertThat(catalog.reads().chunk("heat", id("z"))).isNull();
    assertThat(catalog.reads().chunk("heat", id("x")).refs()).isEqualTo(1);
    assertThat(catalog.reads().chunk("heat", id("b")).refs()).isEqualTo(2);
  }

  @Test
  void aChunkReCodedWithoutItsBase_releasesIt() throws IOException {
    long v1 = commit(List.of("b"), Map.of("b", ""), Map.of());
    commit(List.of("x"), Map.of("x", "b"), Map.of());
    // x sent again with stronger coding and no base: the new pieces replace the old and b loses x's reference
    commit(List.of("x"), Map.of("x", ""), Map.of("x", "code:3+3"));
    assertThat(catalog.reads().chunk("heat", id("x")).base()).isNull();
    assertThat(catalog.reads().chunk("heat", id("b")).refs()).isEqualTo(1);
    assertThat(catalog.delete("heat", "n1", v1)).isTrue();
    assertThat(catalog.reads().chunk("heat", id("b"))).isNull();
  }

  /** Commits a version of {@code chunks}; {@code sent} maps each chunk sent to its base seed ("" for none). */
  private long commit(List<String> chunks, Map<String, String> sent, Map<String, String> coding) throws IOException {
    List<ChunkRef> refs = new ArrayList<>();
    for (String c : chunks) {
      refs.add(new ChunkRef(id(c), CHUNK));
    }
    Manifest m = Manifest.of("heat", "n1", 0, CHUNK, "code:2+1", "none", "file", clock.millis(), "client", refs);
    List<Catalog.NewChunk> out = new ArrayList<>();
    for (Map.Entry<String, String> e : sent.entrySet()) {
      String redundancy = coding.get(e.getKey());
      List<String> holders = redundancy == null ? List.of("p1", "p2", "p3") : List.of("p1", "p2", "p3", "p4", "p5", "p6");
      List<String> tags = new ArrayList<>();
      for (int i = 0; i < holders.size(); i++) {
        tags.add(String.format("%08x", i + 1));
      }
      out.add(new Catalog.NewChunk(id(e.getKey()), holders, 3000, tags, redundancy, e.getValue().isEmpty() ? null : id(e.getValue())));
    }
    clock.advance(java.time.Duration.ofSeconds(1));
    return catalog.commit(m, out, null, null);
  }

  private static ChunkId id(String seed) {
    return ChunkId.of(seed.getBytes(StandardCharsets.UTF_8));
  }
}
