package org.cairn.peer.repair;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.LocatedChunk;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.availability.HostState;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.net.PeerClient;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.read.BadPieceLog;
import org.cairn.core.read.ChunkReader;
import org.cairn.core.read.Pieces;
import org.cairn.peer.load.Throttle;

/*
 * One job's chunk rebuilt in memory: m pieces read through the ChunkReader that fetch and verify use, checked to be the
 * chunk's and re-coded once (SourceCheck; ChunkDecoder's rebuild checks the chunk id), the lost pieces taken from that
 * codeword and each checked to carry the tag the index records for its index. Storing them is TargetWrites' (all of a
 * batch's pieces for one target in one PUT). Bytes read from other peers pass the repair's download throttle.
 */
final class ChunkRebuild {
  /** A job's rebuilt pieces, in the order of its targets. */
  record Rebuilt(RepairJob job, Fragment[] pieces) {}

  private final String self;
  private final TrackerClient tracker;
  private final PeerClient peers;
  private final BadPieceLog bad;
  private final SourceCheck check;
  private final Throttle download;

  ChunkRebuild(String self, TrackerClient tracker, PeerClient peers, BadPieceLog bad, SourceCheck check, Throttle download) {
    this.self = self;
    this.tracker = tracker;
    this.peers = peers;
    this.bad = bad;
    this.check = check;
    this.download = download;
  }

  Rebuilt run(RepairJob job, ChunkReader reader) throws IOException, InterruptedException {
    org.cairn.core.read.Tickets.present(peers, job.tickets()); // READ on the sources, WRITE on the targets
    LocatedChunk chunk = job.located();
    ChunkId id = chunk.chunkId();
    Pieces pieces = gather(reader, chunk);
    Fragment[] codeword;
    try {
      codeword = check.verified(job, pieces.fragments()); // sources whose pieces are not the chunk's are reported
    } finally {
      bad.flush(tracker, self);
    }
    int[] indices = job.targets().stream().mapToInt(RepairJob.Piece::index).toArray();
    Fragment[] rebuilt = new Fragment[indices.length];
    for (int j = 0; j < rebuilt.length; j++) {
      if (indices[j] < 0 || indices[j] >= codeword.length) {
        throw new IOException("chunk " + id.shortHex() + " has pieces 0.." + (codeword.length - 1) + ", the job asks for "
            + indices[j]);
      }
      rebuilt[j] = codeword[indices[j]]; // re-coded and checked once, by SourceCheck
      // a rebuilt piece is byte for byte the one lost, so it has its tag; anything else would be stored under a key no one reads
      if (rebuilt[j].tag() != job.tag(indices[j])) {
        throw new IOException("rebuilt piece " + indices[j] + " of " + id.shortHex() + " has tag " + FragmentKey.tagHex(rebuilt[j].tag())
            + ", the index says " + job.tags().get(indices[j]));
      }
    }
    return new Rebuilt(job, rebuilt);
  }

  /** The job's sources listed DOWN that the reader asked and could not reach. */
  static List<String> unreachable(RepairJob job, ChunkReader reader) {
    List<String> out = new ArrayList<>();
    for (RepairJob.Piece s : job.sources()) {
      if (HostState.DOWN.name().equals(s.state()) && s.address() != null && reader.unreachable(s.address())) {
        out.add(s.peer());
      }
    }
    return out;
  }

  /** Reads m verified pieces through the one read path; pieces found bad are reported for repair. */
  private Pieces gather(ChunkReader reader, LocatedChunk chunk) throws IOException, InterruptedException {
    Pieces pieces;
    try {
      pieces = reader.read(chunk).get();
    } catch (ExecutionException e) {
      throw new IOException("reading " + chunk.chunkId().shortHex() + " failed: " + e.getCause(), e.getCause());
    } finally {
      bad.flush(tracker, self);
    }
    long bytes = 0; // what crossed the network: pieces this peer holds came from its own store
    Fragment[] read = pieces.fragments();
    for (int i = 0; i < read.length; i++) {
      LocatedChunk.Holder h = read[i] == null ? null : chunk.holder(i);
      bytes += h == null || self.equals(h.id()) ? 0 : read[i].serializedSize();
    }
    download.acquire(bytes);
    if (!pieces.enough()) {
      throw new IOException("could not read enough pieces of " + pieces.describe());
    }
    return pieces;
  }
}
