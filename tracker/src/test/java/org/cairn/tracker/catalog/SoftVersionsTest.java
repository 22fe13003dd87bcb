package org.cairn.tracker.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.api.catalog.CommitRequest.SoftHold;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.manifest.Manifest;
import org.junit.jupiter.api.Test;

/** A version written soft stays soft until each peer reports its soft writes durable; a restarted peer's are lost. */
class SoftVersionsTest extends CatalogFixture {
  @Test
  void softUntilEveryPeerReportsItsNumberDurableUnderTheSameBoot() throws IOException {
    long step = commit("v1", List.of(new SoftHold("p1", "a1", 5), new SoftHold("p2", "b2", 9)));
    assertThat(catalog.soft().isSoft("heat", "n1", step)).isTrue();
    catalog.soft().onHeartbeat("p1", "a1", 4);
    catalog.soft().onHeartbeat("p2", "b2", 9);
    assertThat(catalog.soft().isSoft("heat", "n1", step)).as("p1 has made number 4 durable, not 5").isTrue();
    catalog.soft().onHeartbeat("p3", "c3", 100);
    catalog.soft().onHeartbeat("p1", "a1", 5);
    assertThat(catalog.soft().isSoft("heat", "n1", step)).isFalse();
    assertThat(catalog.reads().chunk("heat", id("v1")).holders()).containsExactly("p1", "p2", "p3");
  }

  @Test
  void aPeerBackWithAnotherBoot_losesItsPiecesOfTheStore_soRepairMakesThemAgain() throws IOException {
    long step = commit("v2", List.of(new SoftHold("p1", "a1", 5)));
    catalog.soft().onHeartbeat("p1", "ff", 1000);
    assertThat(catalog.soft().isSoft("heat", "n1", step)).isFalse();
    assertThat(catalog.reads().chunk("heat", id("v2")).holders()).as("p1's piece is unassigned, for repair").containsExactly(null, "p2", "p3");
  }

  @Test
  void aDurableStoreIsNeverSoft_andDeletingASoftVersionForgetsIt() throws IOException {
    long durable = commit("v3", null);
    assertThat(catalog.soft().isSoft("heat", "n1", durable)).isFalse();
    long soft = commit("v4", List.of(new SoftHold("p1", "a1", 1)));
    assertThat(catalog.delete("heat", "n1", soft)).isTrue();
    assertThat(catalog.soft().isSoft("heat", "n1", soft)).isFalse();
  }

  private long commit(String seed, List<SoftHold> soft) throws IOException {
    List<ChunkRef> refs = List.of(new ChunkRef(id(seed), CHUNK));
    Manifest m = Manifest.of("heat", "n1", 0, CHUNK, "code:2+1", "none", "file", clock.millis(), "client", refs);
    List<Catalog.NewChunk> sent = new ArrayList<>();
    sent.add(new Catalog.NewChunk(id(seed), List.of("p1", "p2", "p3"), 3000, List.of("00000001", "00000002", "00000003")));
    return catalog.commit(m, sent, null, soft);
  }

  private static ChunkId id(String seed) {
    return ChunkId.of(seed.getBytes(StandardCharsets.UTF_8));
  }
}
