package org.cairn.core.erasure;

import java.util.Locale;
import org.cairn.core.CorruptDataException;

/**
 * How one encoded chunk becomes n fragments, any m of which give it back: {@code code:m+k}
 * (Reed-Solomon), {@code cauchy:m+k} (XOR-only Cauchy Reed-Solomon) or {@code replicate:r}
 * (m = 1, n = r). Implementations are immutable and thread-safe.
 */
public interface Redundancy {

  Codec codec();

  /** m: fragments needed to rebuild the chunk. */
  int dataFragments();

  /** k: fragments that may be lost. */
  int parityFragments();

  default int totalFragments() {
    return dataFragments() + parityFragments();
  }

  /**
   * Whether a chunk coded this way protects at least as well as {@code wanted}: it survives as many
   * lost pieces. A store may reuse (dedup) a held chunk only when this holds, so dedup never
   * weakens what the user asked for.
   */
  default boolean protectsAtLeast(Redundancy wanted) {
    return parityFragments() >= wanted.parityFragments();
  }

  /**
   * Orders codings from weakest to strongest: fewer pieces that may be lost first; then, among equal
   * tolerance, the one that needs more live hosts (a larger m).
   */
  java.util.Comparator<Redundancy> WEAKEST_FIRST = java.util.Comparator.comparingInt(Redundancy::parityFragments)
      .thenComparing(java.util.Comparator.comparingInt(Redundancy::dataFragments).reversed());

  /** The canonical spec, e.g. {@code code:4+2}. */
  String spec();

  /** Size of every fragment for a payload of the given length. */
  int fragmentSize(int payloadLength);

  /**
   * Cuts {@code payload[offset, offset+length)} into n fragments of {@link #fragmentSize} bytes. The
   * fragments never share memory with {@code payload}, which the caller may reuse at once.
   */
  byte[][] encode(byte[] payload, int offset, int length);

  /**
   * Rebuilds the payload from the fragments present (missing ones are {@code null}); fragments must
   * already be verified. Throws when fewer than m are present or a fragment has the wrong size.
   */
  byte[] decode(byte[][] fragments, int payloadLength) throws CorruptDataException;

  /**
   * All n fragments of the payload the first m present {@code fragments} (missing ones {@code null}) make, as
   * {@code encode(decode(fragments))} would give them: those m as given (not copied), every other index computed
   * from them, so a present fragment beyond the first m comes back re-coded, for the caller to compare. What a repair
   * that checks every piece needs; a code computes only the fragments not among the m, one pass over m fragments
   * each, where decoding and encoding again computes the missing data, then all k parity fragments, and copies
   * the payload twice.
   *
   * @throws CorruptDataException when fewer than m are present, a fragment has the wrong size, or the m do not
   *     make a payload (the padding after it is not zero)
   */
  default byte[][] complete(byte[][] fragments, int payloadLength) throws CorruptDataException {
    return encode(decode(fragments, payloadLength), 0, payloadLength);
  }

  /** The default of the design: FALCON's (m, k) = (3, 2). */
  String DEFAULT_SPEC = "code:3+2";

  /**
   * Parses {@code code:m+k}, {@code cauchy:m+k} or {@code replicate:r}.
   *
   * Schemes are stateless and thread-safe, so a parsed one is cached: building a Reed-Solomon code
   * (its matrix) per call would cost the tracker's repair scan, which asks every chunk for its m.
   *
   * @throws IllegalArgumentException naming the bad spec and what is accepted
   */
  static Redundancy parse(String spec) {
    String s = spec == null ? "" : spec.trim().toLowerCase(Locale.ROOT);
    Redundancy cached = Parsed.CACHE.get(s);
    if (cached != null) {
      return cached;
    }
    Redundancy r = parseNew(spec, s);
    if (Parsed.CACHE.size() < 256) {
      Parsed.CACHE.put(s, r);
    }
    return r;
  }

  private static Redundancy parseNew(String spec, String s) {
    int colon = s.indexOf(':');
    String name = colon < 0 ? s : s.substring(0, colon);
    String args = colon < 0 ? "" : s.substring(colon + 1);
    try {
      switch (name) {
        case "replicate": {
          int r = Integer.parseInt(args);
          return new Replication(r);
        }
        case "code":
        case "rs":
        case "cauchy": {
          int plus = args.indexOf('+');
          if (plus < 0) {
            break;
          }
          int m = Integer.parseInt(args.substring(0, plus));
          int k = Integer.parseInt(args.substring(plus + 1));
          return of(name.equals("cauchy") ? Codec.CAUCHY : Codec.REED_SOLOMON, m, k);
        }
        default:
          break;
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("redundancy '" + spec + "': " + e.getMessage(), e);
    }
    throw new IllegalArgumentException(
        "redundancy must be code:M+K, cauchy:M+K or replicate:R (e.g. code:3+2), was '" + spec + "'");
  }

  /** The scheme with codec, m and k as stored in a fragment header. */
  static Redundancy of(Codec codec, int m, int k) {
    switch (codec) {
      case REPLICATE:
        if (m != 1) {
          throw new IllegalArgumentException("replication has m = 1, was " + m);
        }
        return new Replication(k + 1);
      case REED_SOLOMON:
        return new ReedSolomonRedundancy(m, k);
      case CAUCHY:
        return new CauchyRedundancy(m, k);
      default:
        throw new IllegalArgumentException("unknown codec " + codec);
    }
  }

  /** Parsed schemes by normalised spec (bounded; only valid specs enter). */
  final class Parsed {
    static final java.util.Map<String, Redundancy> CACHE = new java.util.concurrent.ConcurrentHashMap<>();

    private Parsed() {}
  }
}
