package org.cairn.peer.repair;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.cairn.core.CorruptDataException;
import org.cairn.core.api.catalog.LocatedChunk;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.pipeline.ChunkDecoder;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.PieceReply;
import org.cairn.core.read.BadPieceLog;
import org.cairn.core.read.ChunkReader;

/**
 * Checks that the pieces a repair read are the chunk's before anything is rebuilt from them, and finds
 * the sources that served pieces that are not, so they are reported and the job does not fail on them
 * for ever. A piece's CRCs (and so its tag) only show it arrived as its holder sent it: CRC32C is
 * linear, so a hostile holder can alter a piece and keep both CRCs, and its tag.
 *
 * <p>What a peer can verify without the app's key:
 * <ul>
 *   <li>a plaintext chunk (not sealed, not coded against a base): its id is the SHA-256 of its bytes,
 *       so pieces that decode to bytes with that id are the chunk's. Conclusive.
 *   <li>every chunk: each of the n pieces re-coded from those in hand must have the tag its client
 *       recorded at the store (the job's tags). This catches corruption and a forger who fixes up
 *       only its own piece's CRCs, not one who solves the CRCs' linear equations for every index.
 *   <li>a sealed (or delta) chunk: any m pieces make a codeword, so agreement needs more: one extra
 *       piece is read when a source has one, and a forged piece among them shows as disagreement.
 *       Telling which piece is forged takes another (m + 2 in hand), so on disagreement every
 *       remaining source is read, and the codeword that verifies and agrees with the most pieces,
 *       alone, wins.
 * </ul>
 * Not verifiable here: a sealed chunk with only m pieces left, which is rebuilt if its re-coded tags
 * match; the app's key (the AES-GCM tag, checked by the client's fetch) is then the only final check.
 * Pieces found to disagree with the winning codeword are reported to the tracker as bad.
 */
final class SourceCheck {
  /** Pieces left out together when looking for the agreed codeword: up to two bad sources per chunk are located. */
  private static final int MAX_LEFT_OUT = 2;

  private final ChunkReader.PieceSource source;
  private final BadPieceLog bad;
  private final Duration timeout;

  SourceCheck(ChunkReader.PieceSource source, BadPieceLog bad, Duration timeout) {
    this.source = source;
    this.bad = bad;
    this.timeout = timeout;
  }

  /** A codeword re-coded from some pieces in hand: all n pieces, and the indices in hand that agree with it. */
  private record Codeword(Fragment[] pieces, Set<Integer> agreeing) {}

  /**
   * The chunk's n pieces, re-coded once from m or more pieces in hand that agree with one verified codeword (pieces that
   * disagree with it, if any, are added to the bad-piece log). The caller takes the lost pieces from it: they are
   * already re-coded and their tags checked against the job's, so nothing is decoded or hashed twice.
   *
   * @param read the pieces the reader gave, by index (at least m)
   * @throws IOException if the pieces disagree and no codeword is agreed by the most of them
   */
  Fragment[] verified(RepairJob job, Fragment[] read) throws IOException, InterruptedException {
    ChunkId id = ChunkId.parse(job.chunk());
    Fragment[] inHand = Arrays.copyOf(read, Math.max(read.length, job.located().pieces()));
    Fragment first = Arrays.stream(inHand).filter(f -> f != null).findFirst().orElseThrow(() -> new IOException("no pieces"));
    int m = first.dataFragments();
    boolean opaque = first.encryption().encrypted() || first.compression().delta();
    Codeword c;
    String problem;
    try {
      List<Integer> present = present(inHand);
      c = codeword(id, job, inHand, present.subList(0, Math.min(m, present.size())));
      problem = disagreement(c, inHand);
    } catch (CorruptDataException e) {
      c = null;
      problem = e.getMessage();
    }
    if (problem == null && !opaque) {
      return c.pieces(); // the chunk's SHA-256 vouches for it
    }
    if (problem == null) {
      if (readMore(job, inHand, 1) == 0) {
        return c.pieces(); // nothing more to compare with: the tags are all there is
      }
      // the codeword of m pieces is the only one holding them (an MDS code), so the extra piece need only be compared
      problem = disagreement(c, inHand);
      if (problem == null) {
        return c.pieces();
      }
    }
    readMore(job, inHand, Integer.MAX_VALUE);
    Codeword agreed = agreed(id, job, inHand, m);
    if (agreed == null) {
      throw new IOException("pieces of " + id.shortHex() + " disagree (" + problem + ") and no codeword is agreed by most of the "
          + count(inHand) + " in hand: cannot tell which source is bad");
    }
    for (int i = 0; i < inHand.length; i++) {
      if (inHand[i] != null && !agreed.agreeing().contains(i)) {
        LocatedChunk.Holder h = job.located().holder(i);
        bad.add(h == null ? "unknown" : h.id(), FragmentKey.of(inHand[i]),
            "served a piece that disagrees with the chunk's other " + agreed.agreeing().size() + " pieces (its CRCs match: forged)");
      }
    }
    return agreed.pieces();
  }

  /** Null if every piece in hand agrees with the verified codeword {@code c}, else how many do not. */
  private static String disagreement(Codeword c, Fragment[] inHand) {
    List<Integer> present = present(inHand);
    int agreeing = agreeing(c.pieces(), inHand).size();
    return agreeing == present.size() ? null
        : (present.size() - agreeing) + " of " + present.size() + " pieces disagree with the others";
  }

  /**
   * The verified codeword agreed by the most pieces in hand, made from the pieces left after leaving
   * out up to {@link #MAX_LEFT_OUT}; null if none verifies, or two different ones are agreed by as many.
   */
  private static Codeword agreed(ChunkId id, RepairJob job, Fragment[] inHand, int m) {
    List<Integer> present = present(inHand);
    Set<List<Integer>> tried = new HashSet<>();
    Codeword best = null;
    boolean tie = false;
    for (List<Integer> out : leaveOuts(present, MAX_LEFT_OUT)) {
      List<Integer> rest = new ArrayList<>(present);
      rest.removeAll(out);
      if (rest.size() < m || !tried.add(List.copyOf(rest.subList(0, m)))) {
        continue;
      }
      Codeword c;
      try {
        c = codeword(id, job, inHand, rest.subList(0, m));
      } catch (CorruptDataException e) {
        continue; // these m pieces do not make the chunk
      }
      if (best == null || c.agreeing().size() > best.agreeing().size()) {
        best = c;
        tie = false;
      } else if (c.agreeing().size() == best.agreeing().size() && !c.agreeing().equals(best.agreeing())) {
        tie = true;
      }
    }
    return tie ? null : best;
  }

  /** Every set of at most {@code max} of {@code items}, the empty set first. */
  private static List<List<Integer>> leaveOuts(List<Integer> items, int max) {
    List<List<Integer>> out = new ArrayList<>();
    out.add(List.of());
    for (int a = 0; a < items.size(); a++) {
      out.add(List.of(items.get(a)));
    }
    if (max >= 2) {
      for (int a = 0; a < items.size(); a++) {
        for (int b = a + 1; b < items.size(); b++) {
          out.add(List.of(items.get(a), items.get(b)));
        }
      }
    }
    return out;
  }

  /**
   * Re-codes all n pieces from the pieces in hand at {@code from} (m of them), checks them (the chunk's
   * id for a plaintext chunk, inside rebuild; each piece's tag against the job's), and notes which
   * pieces in hand agree.
   */
  private static Codeword codeword(ChunkId id, RepairJob job, Fragment[] inHand, List<Integer> from) throws CorruptDataException {
    Fragment[] subset = new Fragment[inHand.length];
    for (int i : from) {
      subset[i] = inHand[i];
    }
    int n = inHand[from.get(0)].dataFragments() + inHand[from.get(0)].parityFragments();
    int[] all = new int[n];
    Arrays.setAll(all, i -> i);
    Fragment[] pieces = ChunkDecoder.rebuild(id, subset, all);
    for (int i = 0; i < n; i++) {
      if (job.tags() != null && i < job.tags().size() && pieces[i].tag() != job.tag(i)) {
        throw new CorruptDataException("piece " + i + " re-coded from pieces " + from + " has tag " + FragmentKey.tagHex(pieces[i].tag())
            + ", the index says " + job.tags().get(i));
      }
    }
    return new Codeword(pieces, agreeing(pieces, inHand));
  }

  /** The indices of the pieces in hand that are byte for byte the codeword's. */
  private static Set<Integer> agreeing(Fragment[] codeword, Fragment[] inHand) {
    Set<Integer> agreeing = new HashSet<>();
    for (int i : present(inHand)) {
      if (i < codeword.length && inHand[i].tag() == codeword[i].tag()
          && Arrays.equals(inHand[i].payload(), codeword[i].payload())) {
        agreeing.add(i);
      }
    }
    return agreeing;
  }

  /**
   * Reads up to {@code wanted} more pieces from the job's sources whose index is not in hand (in the
   * job's order); bad answers go to the log. One extra piece, a mere comparison, is asked only of
   * holders not listed DOWN (one that is gone would cost a connect timeout per job); when the pieces
   * disagree, every source is asked. Returns how many it added.
   */
  private int readMore(RepairJob job, Fragment[] inHand, int wanted) throws InterruptedException {
    LocatedChunk chunk = job.located();
    int added = 0;
    for (RepairJob.Piece s : job.sources()) {
      if (added >= wanted) {
        break;
      }
      int i = s.index();
      if (i < 0 || i >= inHand.length || inHand[i] != null || s.address() == null
          || wanted == 1 && org.cairn.core.availability.HostState.DOWN.name().equals(s.state())) {
        continue;
      }
      LocatedChunk.Holder h = chunk.holder(i);
      FragmentKey key = new FragmentKey(chunk.chunkId(), i, job.tag(i));
      PieceReply reply;
      try {
        reply = source.get(h, key).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException e) {
        continue; // unreachable now: another source may answer
      }
      if (reply instanceof PieceReply.Found found) {
        inHand[i] = found.fragment();
        added++;
      } else if (reply instanceof PieceReply.Corrupt corrupt) {
        bad.add(h.id(), key, "corrupt on arrival: " + corrupt.reason());
      } else if (reply instanceof PieceReply.Missing missing) {
        bad.add(h.id(), key, missing.reason().startsWith("corrupt") ? missing.reason() : "not held (" + missing.reason() + ")");
      }
    }
    return added;
  }

  private static List<Integer> present(Fragment[] inHand) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < inHand.length; i++) {
      if (inHand[i] != null) {
        out.add(i);
      }
    }
    return out;
  }

  private static int count(Fragment[] inHand) {
    return present(inHand).size();
  }
}
