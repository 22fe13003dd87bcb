package org.cairn.core.protocol;

import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;
import org.cairn.core.CorruptDataException;
import org.cairn.core.fragment.Fragment;

/**
 * A peer's answer to GET, decoded and checked against the key asked for. {@link Found}: the piece,
 * verified (CRC of header and payload) and the piece that was asked for; {@link Missing}: the peer
 * does not hold it (NOT_FOUND); {@link Corrupt}: bytes arrived but are not a good copy of the piece
 * (the holder should be reported); {@link Failed}: any other answer.
 */
public sealed interface PieceReply {

  /** The verified piece. */
  record Found(Fragment fragment) implements PieceReply {}

  /** The peer does not hold the piece (or dropped it as corrupt); {@code reason} is the peer's word. */
  record Missing(String reason) implements PieceReply {}

  /** The answer was a piece, but not a good copy of the one asked for. */
  record Corrupt(String reason) implements PieceReply {}

  /** Neither a piece nor NOT_FOUND. */
  record Failed(String reason) implements PieceReply {}

  /** Decodes a GET answer for {@code asked}; does not release the frame. */
  static PieceReply decode(Frame answer, FragmentKey asked) {
    switch (answer.type()) {
      case FRAGMENT:
        try {
          Fragment f = Fragment.parse(ByteBufUtil.getBytes(answer.payload()));
          if (!f.chunkId().equals(asked.chunkId()) || f.index() != asked.index() || f.tag() != asked.tag()) {
            return new Corrupt("holds another piece under this key (" + f.chunkId().shortHex() + " #" + f.index() + ")");
          }
          return new Found(f);
        } catch (CorruptDataException e) {
          return new Corrupt(e.getMessage());
        }
      case NOT_FOUND:
        return new Missing(answer.payload().toString(StandardCharsets.UTF_8));
      case REFUSED:
        return new Failed("refused (" + Refusal.describe(answer.payload()) + ")");
      default:
        return new Failed(answer.type() + " " + answer.payload().toString(StandardCharsets.UTF_8));
    }
  }
}
