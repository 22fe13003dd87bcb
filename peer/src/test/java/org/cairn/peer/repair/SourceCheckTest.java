package org.cairn.peer.repair;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.compress.Compressor;
import org.cairn.core.crypto.AppKey;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.PieceReply;
import org.cairn.core.read.BadPieceLog;
import org.cairn.core.read.ChunkReader;
import org.junit.jupiter.api.Test;

/** What SourceCheck hands ChunkRebuild: the whole verified codeword, re-coded once, from which the lost pieces are taken. */
class SourceCheckTest {
  private final List<Integer> extraReads = new CopyOnWriteArrayList<>();
  private final BadPieceLog bad = new BadPieceLog();
  private Fragment[] pieces;
  private ChunkId id;

  private void chunk(ChunkCodec codec, long seed) {
    byte[] chunk = new byte[48 * 1024];
    new Random(seed).nextBytes(chunk);
    id = codec.id(chunk, chunk.length);
    pieces = codec.encode(id, chunk, chunk.length);
  }

  /** Piece 0 is lost (its target); 1..5 are held by peers s1..s5, which serve them through {@code source}. */
  private RepairJob job() {
    List<String> tags = new ArrayList<>();
    for (Fragment f : pieces) {
      tags.add(FragmentKey.tagHex(f.tag()));
    }
    List<RepairJob.Piece> sources = new ArrayList<>();
    for (int i = 1; i < pieces.length; i++) {
      sources.add(new RepairJob.Piece(i, "s" + i, "127.0.0.1:" + (1000 + i)));
    }
    return new RepairJob("job-1", "app", id.hex(), "code:4+2", pieces[0].payload().length, sources,
        List.of(new RepairJob.Piece(0, "t", "127.0.0.1:2000")), tags);
  }

  private SourceCheck check(Fragment served) {
    ChunkReader.PieceSource source = (holder, key) -> {
      extraReads.add(key.index());
      return CompletableFuture.completedFuture(new PieceReply.Found(served != null ? served : pieces[key.index()]));
    };
    return new SourceCheck(source, bad, Duration.ofSeconds(5));
  }

  /** What the reader gave: pieces 1..4, the first m live ones. */
  private Fragment[] read() {
    return new Fragment[] {null, pieces[1], pieces[2], pieces[3], pieces[4], null};
  }

  @Test
  void aPlaintextChunksCodewordHoldsEveryPieceBitForBit_theLostOneIncluded_withoutReadingMore() throws Exception {
    chunk(new ChunkCodec(Compressor.parse("none"), Redundancy.parse("code:4+2")), 1);

    Fragment[] codeword = check(null).verified(job(), read());

    assertThat(codeword).hasSize(6);
    for (int i = 0; i < 6; i++) {
      assertThat(codeword[i].toBytes()).as("piece " + i).isEqualTo(pieces[i].toBytes());
    }
    assertThat(extraReads).as("its SHA-256 vouches for it: no extra piece").isEmpty();
    assertThat(bad.size()).isZero();
  }

  @Test
  void aSealedChunkReadsOneExtraPiece_comparesItWithTheCodewordInHand_andHandsBackTheLostPiece() throws Exception {
    chunk(new ChunkCodec(Compressor.parse("none"), Redundancy.parse("code:4+2"),
        AppKey.generate("app", java.time.Instant.EPOCH).crypto(Encryption.AES_GCM)), 2);

    Fragment[] codeword = check(null).verified(job(), read());

    assertThat(extraReads).as("one extra piece, the only one not in hand").containsExactly(5);
    assertThat(codeword[0].toBytes()).as("the lost piece, bit for bit").isEqualTo(pieces[0].toBytes());
    assertThat(bad.size()).isZero();
  }

  @Test
  void aSealedChunksForgedExtraPiece_isCaughtByTheComparison_andItsHolderLogged() throws Exception {
    chunk(new ChunkCodec(Compressor.parse("none"), Redundancy.parse("code:4+2"),
        AppKey.generate("app", java.time.Instant.EPOCH).crypto(Encryption.AES_GCM)), 3);
    byte[] payload = pieces[5].payload().clone();
    payload[7] ^= 1;
    Fragment forged = Fragment.create(id, pieces[5].codec(), pieces[5].compression(), pieces[5].encryption(), 5,
        pieces[5].dataFragments(), pieces[5].parityFragments(), pieces[5].chunkLength(), pieces[5].encodedLength(), payload);

    Fragment[] codeword = check(forged).verified(job(), read());

    assertThat(codeword[0].toBytes()).as("the four that agree still rebuild the lost piece").isEqualTo(pieces[0].toBytes());
    assertThat(bad.size()).as("the forged extra piece's holder").isEqualTo(1);
  }
}
