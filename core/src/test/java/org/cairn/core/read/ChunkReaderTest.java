package org.cairn.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.cairn.core.api.catalog.LocatedChunk;
import org.cairn.core.availability.HostState;
import org.cairn.core.compress.Compressor;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.image.MemoryImages;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.PieceReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The one read path: m from the chunk's own coding, and what each mode asks for and reports. */
class ChunkReaderTest {
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final byte[] data = MemoryImages.image(11, 200_000);
  private final ChunkId id = ChunkId.of(data);

  @AfterEach
  void stop() {
    timer.shutdownNow();
  }

  /** A grid in a map: holder address -> what it answers for each piece index. */
  private static class Holders implements ChunkReader.PieceSource {
    final Map<Integer, PieceReply> answers = new HashMap<>();
    final List<Integer> asked = Collections.synchronizedList(new ArrayList<>());
    final Map<Integer, CompletableFuture<PieceReply>> held = new HashMap<>();

    @Override
    public CompletableFuture<PieceReply> get(LocatedChunk.Holder holder, FragmentKey key) {
      asked.add(key.index());
      CompletableFuture<PieceReply> waiting = held.get(key.index());
      if (waiting != null) {
        return waiting;
      }
      PieceReply r = answers.get(key.index());
      return r == null ? CompletableFuture.failedFuture(new java.io.IOException("connection refused")) : CompletableFuture.completedFuture(r);
    }
  }

  private Fragment[] encode(String coding) {
    return new ChunkCodec(Compressor.parse("zstd"), Redundancy.parse(coding)).encode(id, data, data.length);
  }

  private static LocatedChunk located(ChunkId id, String indexCoding, Fragment[] pieces, HostState... states) {
    List<LocatedChunk.Holder> holders = new ArrayList<>();
    for (int i = 0; i < pieces.length; i++) {
      HostState s = i < states.length ? states[i] : HostState.RUNNING;
      holders.add(new LocatedChunk.Holder("p" + i, "127.0.0.1:" + (7000 + i), s, FragmentKey.tagHex(pieces[i].tag())));
    }
    return new LocatedChunk(id.hex(), indexCoding, holders);
  }

  private ChunkReader reader(Holders h, ChunkReader.Mode mode, BadPieceLog bad) {
    return new ChunkReader(h, mode, Duration.ofSeconds(5), timer, bad);
  }

  private static Holders serving(Fragment[] pieces) {
    Holders h = new Holders();
    for (int i = 0; i < pieces.length; i++) {
      h.answers.put(i, new PieceReply.Found(pieces[i]));
    }
    return h;
  }

  @Test
  void firstM_readsExactlyTheChunksOwnM_andDecodes() throws Exception {
    Fragment[] pieces = encode("code:4+2");
    Holders h = serving(pieces);
    Pieces p = reader(h, ChunkReader.Mode.FIRST_M, new BadPieceLog()).read(located(id, "code:4+2", pieces)).get(5, TimeUnit.SECONDS);
    assertThat(p.needed()).isEqualTo(4);
    assertThat(p.enough()).isTrue();
    assertThat(h.asked).hasSize(4);
    assertThat(p.decode()).isEqualTo(data);
  }

  @Test
  void aPieceHeaderOverrulesAStaleIndexCoding_soTwoDeadHoldersOfA4Plus2ChunkDoNotFailTheRead() throws Exception {
    // The index (or a version) said 3+2, the chunk is really coded 4+2
    Fragment[] pieces = encode("code:4+2");
    Holders h = serving(pieces);
    h.answers.remove(0);
    h.answers.remove(3);
    for (ChunkReader.Mode mode : new ChunkReader.Mode[] {ChunkReader.Mode.ALL, ChunkReader.Mode.FIRST_M, ChunkReader.Mode.HEDGED}) {
      h.asked.clear();
      Pieces p = reader(h, mode, new BadPieceLog()).read(located(id, "code:3+2", pieces)).get(5, TimeUnit.SECONDS);
      assertThat(p.needed()).as(mode.name()).isEqualTo(4);
      assertThat(p.enough()).as(mode + ": " + p.describe()).isTrue();
      assertThat(p.decode()).isEqualTo(data);
    }
  }

  @Test
  void aPieceWhoseConnectionWasLost_isAskedAgainOnce_whileAnUnreachableHolderIsNot() throws Exception {
    // code:4+2 with two holders down: the read needs every other piece, so one lost connection must not lose it
    Fragment[] pieces = encode("code:4+2");
    for (ChunkReader.Mode mode : new ChunkReader.Mode[] {ChunkReader.Mode.ALL, ChunkReader.Mode.FIRST_M, ChunkReader.Mode.HEDGED}) {
      Holders h = new Holders() {
        int lost;

        @Override
        public CompletableFuture<PieceReply> get(LocatedChunk.Holder holder, FragmentKey key) {
          if (key.index() == 5 && lost++ == 0) {
            asked.add(key.index());
            return CompletableFuture.failedFuture(new org.cairn.core.net.ConnectionLostException("connection to peer x is closed"));
          }
          return super.get(holder, key);
        }
      };
      for (int i = 2; i < pieces.length; i++) {
        h.answers.put(i, new PieceReply.Found(pieces[i]));
      }
      Pieces p = reader(h, mode, new BadPieceLog()).read(located(id, "code:4+2", pieces)).get(5, TimeUnit.SECONDS);
      assertThat(p.enough()).as(mode + ": " + p.describe()).isTrue();
      assertThat(p.decode()).isEqualTo(data);
      assertThat(Collections.frequency(h.asked, 5)).as(mode + ": the lost piece asked twice").isEqualTo(2);
      assertThat(Collections.frequency(h.asked, 0)).as(mode + ": an unreachable holder asked once").isEqualTo(1);
    }
  }

  @Test
  void firstM_asksUnloadedHoldersBeforeLoadedOrBusyOnes() throws Exception {
    Fragment[] pieces = encode("code:2+2");
    Holders h = serving(pieces);
    Pieces p = reader(h, ChunkReader.Mode.FIRST_M, new BadPieceLog())
        .read(located(id, "code:2+2", pieces, HostState.BUSY, HostState.LOADED, HostState.RUNNING, HostState.RUNNING))
        .get(5, TimeUnit.SECONDS);
    assertThat(p.decode()).isEqualTo(data);
    assertThat(h.asked).containsExactlyInAnyOrder(2, 3);
  }

  @Test
  void downHoldersAreNotAsked_whenTheLiveOnesGiveM() throws Exception {
    Fragment[] pieces = encode("code:4+2");
    for (ChunkReader.Mode mode : ChunkReader.Mode.values()) {
      Holders h = serving(pieces);
      Pieces p = reader(h, mode, new BadPieceLog()).read(located(id, "code:4+2", pieces, HostState.DOWN, HostState.RUNNING, HostState.DOWN))
          .get(5, TimeUnit.SECONDS);
      assertThat(p.decode()).as(mode.name()).isEqualTo(data);
      assertThat(h.asked).as(mode.name()).doesNotContain(0, 2);
    }
  }

  @Test
  void holdersListedDown_areAskedLast_whenTheLiveOnesCannotGiveM() throws Exception {
    // the tracker lists a restarted holder DOWN until its next heartbeat: a read that needs its piece asks it
    Fragment[] pieces = encode("code:4+2");
    for (ChunkReader.Mode mode : ChunkReader.Mode.values()) {
      Holders h = serving(pieces);
      h.answers.remove(4); // live, but unreachable
      Pieces p = reader(h, mode, new BadPieceLog())
          .read(located(id, "code:4+2", pieces, HostState.DOWN, HostState.DOWN, HostState.RUNNING, HostState.DOWN)).get(5, TimeUnit.SECONDS);
      assertThat(p.enough()).as(mode + ": " + p.describe()).isTrue();
      assertThat(p.decode()).isEqualTo(data);
      assertThat(h.asked).as(mode.name()).contains(2, 4, 5);
    }
  }

  @Test
  void aHolderListedDownThatCannotBeReached_isNotAskedAgainByTheSameReader() throws Exception {
    // a host that is really gone costs one failed connection per command, not one per chunk
    Fragment[] pieces = encode("code:4+2");
    for (ChunkReader.Mode mode : ChunkReader.Mode.values()) {
      Holders h = serving(pieces);
      h.answers.remove(0); // listed DOWN, and gone
      h.answers.remove(5); // live, but unreachable: the read needs a DOWN-listed holder
      ChunkReader reader = reader(h, mode, new BadPieceLog());
      LocatedChunk c = located(id, "code:4+2", pieces, HostState.DOWN, HostState.DOWN);
      assertThat(reader.read(c).get(5, TimeUnit.SECONDS).enough()).as(mode.name()).isTrue();
      h.asked.clear();
      Pieces again = reader.read(c).get(5, TimeUnit.SECONDS);
      assertThat(again.decode()).as(mode.name()).isEqualTo(data);
      assertThat(h.asked).as(mode + ": the second read").doesNotContain(0).contains(1);
    }
  }

  @Test
  void tooFewPiecesFromLiveAndDownHolders_isReportedNotThrown_andARefusedDownHolderIsAskedOnce() throws Exception {
    Fragment[] pieces = encode("code:4+2");
    for (ChunkReader.Mode mode : ChunkReader.Mode.values()) {
      Holders h = serving(pieces);
      h.answers.remove(0);
      h.answers.remove(1);
      h.answers.remove(3); // really down
      Pieces p = reader(h, mode, new BadPieceLog())
          .read(located(id, "code:4+2", pieces, HostState.DOWN, HostState.DOWN, HostState.RUNNING, HostState.DOWN)).get(5, TimeUnit.SECONDS);
      assertThat(p.enough()).as(mode.name()).isFalse();
      assertThat(p.good()).as(mode.name()).isEqualTo(3);
      assertThat(p.describe()).contains("3 good pieces of 4 needed").contains("is DOWN");
      assertThat(Collections.frequency(h.asked, 0)).as(mode + ": a refused DOWN holder is asked once").isEqualTo(1);
    }
  }

  @Test
  void missingAndCorruptPiecesGoToTheBadPieceLog_andOthersAreAskedInstead() throws Exception {
    Fragment[] pieces = encode("code:3+2");
    Holders h = serving(pieces);
    h.answers.put(0, new PieceReply.Missing("not held"));
    h.answers.put(1, new PieceReply.Corrupt("crc mismatch"));
    BadPieceLog bad = new BadPieceLog();
    Pieces p = reader(h, ChunkReader.Mode.FIRST_M, bad).read(located(id, "code:3+2", pieces)).get(5, TimeUnit.SECONDS);
    assertThat(p.enough()).isTrue();
    assertThat(p.decode()).isEqualTo(data);
    assertThat(h.asked).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
    assertThat(bad.size()).isEqualTo(2);
  }

  @Test
  void every_awaitsAllLiveHolders() throws Exception {
    Fragment[] pieces = encode("replicate:3");
    Holders h = serving(pieces);
    Pieces p = reader(h, ChunkReader.Mode.EVERY, new BadPieceLog()).read(located(id, "replicate:3", pieces)).get(5, TimeUnit.SECONDS);
    assertThat(p.needed()).isEqualTo(1);
    assertThat(p.good()).isEqualTo(3);
    assertThat(p.asked()).isEqualTo(3);
  }

  @Test
  void aSlowHoldersLateAnswer_doesNotKeepTheDecodedPiecesAlive() throws Exception {
    // ALL asks every holder; the chunk is done from the fast ones while the slow one's answer is still out.
    // That pending answer must not keep the read's pieces reachable (a fetch with one slow holder ran out of heap).
    Fragment[] pieces = encode("code:2+1");
    Holders h = serving(pieces);
    CompletableFuture<PieceReply> slow = new CompletableFuture<>();
    h.held.put(2, slow);
    ChunkReader r = reader(h, ChunkReader.Mode.ALL, new BadPieceLog());
    Pieces p = r.read(located(id, "code:2+1", pieces)).get(5, TimeUnit.SECONDS);
    assertThat(p.enough()).isTrue();
    java.lang.ref.WeakReference<Fragment> piece = new java.lang.ref.WeakReference<>(p.fragments()[0]);
    p = null;
    pieces = null;
    h.answers.clear();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (piece.get() != null && System.nanoTime() < until) {
      System.gc();
      Thread.onSpinWait();
    }
    assertThat(piece.get()).as("a piece of a finished read, reachable only through the slow holder's pending answer").isNull();
    assertThat(slow.isDone()).isFalse();
    slow.complete(new PieceReply.Failed("late")); // the late answer is dropped without effect
  }

  @Test
  void anUnansweredHolderTimesOut_withWhatIsInHand() throws Exception {
    Fragment[] pieces = encode("code:2+1");
    Holders h = serving(pieces);
    h.held.put(1, new CompletableFuture<>()); // never answers
    h.held.put(2, new CompletableFuture<>());
    ChunkReader r = new ChunkReader(h, ChunkReader.Mode.ALL, Duration.ofMillis(200), timer, new BadPieceLog());
    Pieces p = r.read(located(id, "code:2+1", pieces)).get(5, TimeUnit.SECONDS);
    assertThat(p.enough()).isFalse();
    assertThat(p.problems()).anyMatch(s -> s.contains("did not answer within 200 ms"));
  }

  @Test
  void randomLossPatterns_readSucceedsExactlyWhenAtLeastMPiecesAreServed() throws Exception {
    Random random = new Random(42);
    String[] codings = {"code:2+1", "code:3+2", "code:4+2", "replicate:2", "replicate:3"};
    for (int round = 0; round < 100; round++) {
      String coding = codings[random.nextInt(codings.length)];
      Fragment[] pieces = encode(coding);
      Holders h = serving(pieces);
      int served = pieces.length;
      ChunkReader.Mode mode = ChunkReader.Mode.values()[random.nextInt(ChunkReader.Mode.values().length)];
      HostState[] states = new HostState[pieces.length];
      for (int i = 0; i < pieces.length; i++) {
        int fate = random.nextInt(5);
        states[i] = fate == 1 || fate == 4 ? HostState.DOWN : HostState.RUNNING;
        if (fate == 4) {
          continue; // listed DOWN but back: asked last, and serves
        } else if (fate == 1 || fate == 2) {
          h.answers.remove(i); // down, or up but unreachable
          served--;
        } else if (fate == 3 && random.nextBoolean()) {
          h.answers.put(i, new PieceReply.Missing("not held"));
          served--;
        }
      }
      int m = Redundancy.parse(coding).dataFragments();
      // the index may disagree with the pieces; the pieces win
      String indexCoding = random.nextInt(4) == 0 ? "code:3+2" : coding;
      Pieces p = reader(h, mode, new BadPieceLog()).read(located(id, indexCoding, pieces, states)).get(5, TimeUnit.SECONDS);
      assertThat(p.enough()).as("round %d: %s, %s, %d served: %s", round, coding, mode, served, p.describe()).isEqualTo(served >= m);
      if (p.enough()) {
        assertThat(p.decode()).isEqualTo(data);
      }
    }
  }
}
