package org.cairn.tracker.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.cairn.core.api.catalog.CatalogRecordBlob;
import org.cairn.core.catalog.CatalogRecord;
import org.cairn.core.crypto.CatalogKey;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.manifest.Manifest;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.tracker.MutableClock;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.store.TrackerStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Catalog records: a version's record seals its manifest and its chunks' index entries; its
 * pieces are kept by the index while the version lives and released with it; records read back rebuild
 * the same versions, chunk entries and reference counts in an empty store, holders as the peers hold them.
 */
class CatalogRecordsTest {
  private static final int CHUNK = 4096;
  private static final String KEY = CatalogKey.generatePrivate();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private final MutableClock clock = new MutableClock(1_800_000_000_000L);
  private TrackerStore store;
  private Catalog catalog;
  private CatalogRecords records;

  @BeforeEach
  void open() throws IOException {
    store = TrackerStore.open(dir.resolve("a"));
    catalog = new Catalog(store, clock, new EventLog(clock, 100));
    records = new CatalogRecords(store, catalog, KEY);
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void recordsAreKeptWithTheirVersion_andRebuildTheCatalog() throws Exception {
    catalog.setPolicy("heat", "keep-all");
    long v1 = commit("n1", List.of("a", "b", "c"), List.of("a", "b", "c"), Map.of());
    long v2 = commit("n1", List.of("a", "b", "d"), List.of("d"), Map.of("d", "b"));
    long v3 = commit("n2", List.of("c", "e"), List.of("e"), Map.of());
    List<CatalogRebuild.Found> found = new ArrayList<>();
    Map<FragmentKey, String> holders = new HashMap<>();
    for (String[] v : new String[][] {{"n1", "" + v1}, {"n1", "" + v2}, {"n2", "" + v3}}) {
      CatalogRecordBlob blob = records.seal("heat", v[0], Long.parseLong(v[1]));
      Fragment[] pieces = CatalogRecord.code(blob.sealedBytes(), Redundancy.parse("code:2+1"));
      ChunkId id = pieces[0].chunkId();
      assertThat(id.hex()).isEqualTo(blob.id());
      List<String> tags = new ArrayList<>();
      for (Fragment f : pieces) {
        tags.add(FragmentKey.tagHex(f.tag()));
        holders.put(FragmentKey.of(f), "p" + (f.index() + 1));
      }
      assertThat(records.attach("heat", v[0], Long.parseLong(v[1]), new Catalog.NewChunk(id, List.of("p1", "p2", "p3"), 3000,
          tags, "code:2+1"))).isTrue();
      assertThat(catalog.reads().chunk("heat", id).refs()).isEqualTo(1);
      // the record opens to what the tracker knows of the version
      RecordContent c = JSON.readValue(CatalogRecord.unpack(CatalogKey.open(KEY, blob.sealedBytes())), RecordContent.class);
      assertThat(c.step()).isEqualTo(Long.parseLong(v[1]));
      assertThat(c.policy()).isEqualTo("keep-all");
      found.add(new CatalogRebuild.Found(id, c, new ChunkRecord(List.of("p1", "p2", "p3"), 3000, 1, "code:2+1", null, tags, null)));
    }
    // a second record for a version is refused (its pieces stay garbage); one that is not a record's id too
    CatalogRecordBlob again = records.seal("heat", "n1", v1);
    assertThat(records.attach("heat", "n1", v1, new Catalog.NewChunk(ChunkId.parse(again.id()), List.of("p1", "p2", "p3"), 3000,
        List.of("00000001", "00000002", "00000003"), "code:2+1"))).isFalse();
    assertThatThrownBy(() -> records.attach("heat", "n1", v1, new Catalog.NewChunk(id("a"), List.of("p1", "p2", "p3"), 3000,
        List.of("00000001", "00000002", "00000003"), "code:2+1"))).isInstanceOf(IllegalArgumentException.class);
    for (String seed : new String[] {"a", "b", "c", "d", "e"}) {
      Catalog.NewChunk c = sent(seed, null);
      for (int i = 0; i < 3; i++) {
        holders.put(new FragmentKey(id(seed), i, FragmentKey.parseTag(c.tags().get(i))), i == 1 && seed.equals("e") ? null : "p" + (i + 4));
      }
    }
    holders.values().removeIf(java.util.Objects::isNull); // piece 1 of e is held by no peer

    // rebuilt into an empty store: the same versions, entries and counts; holders as the peers hold them now
    try (TrackerStore empty = TrackerStore.open(dir.resolve("b"))) {
      CatalogRebuild.Summary s = CatalogRebuild.write(empty, found, holders);
      assertThat(s.versions()).isEqualTo(3);
      assertThat(s.piecesMissing()).isEqualTo(1);
      assertThat(s.unreadable()).isZero();
      Catalog rebuilt = new Catalog(empty, clock, new EventLog(clock, 100));
      assertThat(rebuilt.reads().versions("heat", "n1")).hasSize(2);
      assertThat(rebuilt.policy("heat")).isEqualTo("keep-all");
      for (String seed : new String[] {"a", "b", "c", "d", "e"}) {
        ChunkRecord was = catalog.reads().chunk("heat", id(seed));
        ChunkRecord now = rebuilt.reads().chunk("heat", id(seed));
        assertThat(now.refs()).as(seed).isEqualTo(was.refs());
        assertThat(now.base()).as(seed).isEqualTo(was.base());
        assertThat(now.tags()).as(seed).isEqualTo(was.tags());
      }
      assertThat(rebuilt.reads().chunk("heat", id("a")).holders()).containsExactly("p4", "p5", "p6");
      assertThat(rebuilt.reads().chunk("heat", id("e")).holders()).containsExactly("p4", null, "p6");
      // deleting a rebuilt version releases its record with it, as before the loss
      assertThat(rebuilt.delete("heat", "n1", v1)).isTrue();
      assertThat(rebuilt.reads().chunk("heat", found.get(0).id())).isNull();
      assertThat(rebuilt.reads().chunk("heat", id("c")).refs()).isEqualTo(1);
    }
    // and on the original catalog: the record goes with its version
    assertThat(catalog.delete("heat", "n2", v3)).isTrue();
    assertThat(catalog.reads().chunk("heat", found.get(2).id())).isNull();
  }

  @Test
  void commitsAndRecords_areJournaledWithExactlyTheWritesTheyMade_andADeleteIsNot() throws Exception {
    long before = catalog.changeCount();
    long v1 = commit("n1", List.of("a", "b", "c"), List.of("a", "b", "c"), Map.of());
    long v2 = commit("n1", List.of("a", "b", "d"), List.of("d"), Map.of("d", "b")); // d coded against b: b's references change
    CatalogRecordBlob blob = records.seal("heat", "n1", v2);
    Fragment[] pieces = CatalogRecord.code(blob.sealedBytes(), Redundancy.parse("code:2+1"));
    List<String> tags = new ArrayList<>();
    for (Fragment f : pieces) {
      tags.add(FragmentKey.tagHex(f.tag()));
    }
    assertThat(records.attach("heat", "n1", v2, new Catalog.NewChunk(pieces[0].chunkId(), List.of("p1", "p2", "p3"), 3000, tags,
        "code:2+1"))).isTrue();

    CommitJournal.Mark mark = catalog.changesAfter(0);
    assertThat(mark.changes() - before).as("every write so far was a journaled commit or record").isEqualTo(mark.foldableWrites());
    assertThat(mark.after()).extracting(CommitJournal.Committed::step).containsExactly(v1, v2, v2);
    assertThat(mark.after().get(0).created()).containsExactly(id("a"), id("b"), id("c"));
    assertThat(mark.after().get(1).created()).containsExactly(id("d"));
    assertThat(mark.after().get(2).created()).containsExactly(pieces[0].chunkId());
    assertThat(catalog.changesAfter(mark.seq()).after()).as("a scan that took them in is not given them again").isEmpty();

    assertThat(catalog.delete("heat", "n1", v1)).isTrue();
    CommitJournal.Mark after = catalog.changesAfter(mark.seq());
    assertThat(after.changes() - after.foldableWrites()).as("a delete is not foldable").isGreaterThan(mark.changes() - mark.foldableWrites());
    assertThat(after.after()).isEmpty();
  }

  /** Commits a version of {@code chunks}, sending {@code sent} (bases as given). */
  private long commit(String node, List<String> chunks, List<String> sent, Map<String, String> bases) throws IOException {
    List<ChunkRef> refs = new ArrayList<>();
    for (String c : chunks) {
      refs.add(new ChunkRef(id(c), CHUNK));
    }
    Manifest m = Manifest.of("heat", node, 0, CHUNK, "code:2+1", "none", "file", clock.millis(), "client", refs);
    List<Catalog.NewChunk> out = new ArrayList<>();
    for (String s : sent) {
      out.add(sent(s, bases.get(s)));
    }
    clock.advance(java.time.Duration.ofSeconds(1));
    return catalog.commit(m, out, null, null);
  }

  private static Catalog.NewChunk sent(String seed, String base) {
    List<String> tags = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      tags.add(String.format("%08x", seed.hashCode() + i));
    }
    return new Catalog.NewChunk(id(seed), List.of("p1", "p2", "p3"), 3000, tags, "code:2+1", base == null ? null : id(base));
  }

  private static ChunkId id(String seed) {
    return ChunkId.of(seed.getBytes(StandardCharsets.UTF_8));
  }
}
