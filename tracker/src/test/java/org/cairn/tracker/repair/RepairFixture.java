package org.cairn.tracker.repair;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.api.member.RegisterRequest;
import org.cairn.core.availability.Crls;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.manifest.Manifest;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.tracker.MutableClock;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.history.History;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.placement.PlacementService;
import org.cairn.tracker.store.TrackerStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A repair service over a real tracker database, its catalog and membership, on a clock the test moves. */
abstract class RepairFixture {
  static final int CHUNK = 4096;
  static final List<String> TAGS = List.of("00000001", "00000002", "00000003", "00000004", "00000005", "00000006");

  @TempDir
  Path dir;

  final MutableClock clock = new MutableClock(1_800_000_000_000L);
  TrackerStore store;
  EventLog events;
  Membership membership;
  Catalog catalog;
  RepairService repair;
  PlacementService placement;

  @BeforeEach
  void openRepair() throws IOException {
    store = TrackerStore.open(dir);
    events = new EventLog(clock, 100);
    membership = new Membership(store, clock, Duration.ofSeconds(3), events);
    History history = new History(store, clock, Duration.ofMinutes(1), Duration.ofDays(14));
    placement = new PlacementService(store, membership, history, clock, Crls.defaults(), Duration.ofDays(7),
        Duration.ofSeconds(10));
    catalog = new Catalog(store, clock, events);
    repair = new RepairService(catalog, membership, placement, events, clock,
        new RepairService.Config(Duration.ofMinutes(10), Duration.ofSeconds(1), 4, Duration.ofMinutes(2)));
  }

  @AfterEach
  void closeRepair() {
    store.close();
  }

  void peers(String... ids) throws IOException {
    for (int i = 0; i < ids.length; i++) {
      membership.register(new RegisterRequest(ids[i], "127.0.0.1:" + (7000 + i), "RUNNING", 1L << 30, 0, 1L << 31, 0, false, "t"));
    }
  }

  /** Commits app/n1's next version of one chunk, coded code:(holders-2)+2, its fragment i on holders[i]. */
  long commit(String app, String seed, String... holders) throws IOException {
    List<ChunkRef> refs = List.of(new ChunkRef(id(seed), CHUNK));
    String coding = "code:" + (holders.length - 2) + "+2";
    Manifest m = Manifest.of(app, "n1", 0, CHUNK, coding, "none", "file", clock.millis(), "client", refs);
    List<Catalog.NewChunk> sent = new ArrayList<>();
    sent.add(new Catalog.NewChunk(id(seed), List.of(holders), 3000, TAGS.subList(0, holders.length)));
    return catalog.commit(m, sent, null, null);
  }

  static ChunkId id(String seed) {
    return ChunkId.of(seed.getBytes(StandardCharsets.UTF_8));
  }

  /** The 37-byte key of fragment {@code index} of the chunk of {@code seed}, as committed. */
  static byte[] key(String seed, int index) {
    return new FragmentKey(id(seed), index, FragmentKey.parseTag(TAGS.get(index))).toBytes();
  }

  List<String> holders(String app, String seed) throws IOException {
    return catalog.reads().chunk(app, id(seed)).holders();
  }
}
