package org.cairn.core.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FixedSizeChunkerTest {
  private static final int S = ChunkSize.MIN;

  @Test
  void next_cutsAtFixedOffsetsWithAShortLastChunk() throws IOException {
    byte[] data = random(3 * S + 100, 1);
    FixedSizeChunker chunker = new FixedSizeChunker(new ByteArrayInputStream(data), S);
    ByteArrayOutputStream joined = new ByteArrayOutputStream();
    int count = 0;
    Chunk c;
    while ((c = chunker.next()) != null) {
      assertThat(c.index()).isEqualTo(count);
      assertThat(c.offset()).isEqualTo((long) count * S);
      assertThat(c.length()).isEqualTo(count < 3 ? S : 100);
      joined.write(c.data(), 0, c.length());
      count++;
    }
    assertThat(count).isEqualTo(4);
    assertThat(joined.toByteArray()).isEqualTo(data);
    assertThat(chunker.bytesRead()).isEqualTo(data.length);
  }

  @Test
  void next_isUnaffectedByShortReads() throws IOException {
    byte[] data = random(2 * S, 2);
    InputStream trickle = new FilterInputStream(new ByteArrayInputStream(data)) {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return super.read(b, off, Math.min(len, 1000));
      }
    };
    FixedSizeChunker chunker = new FixedSizeChunker(trickle, S);
    assertThat(chunker.next().length()).isEqualTo(S);
    assertThat(chunker.next().length()).isEqualTo(S);
    assertThat(chunker.next()).isNull();
  }

  @Test
  void next_returnsNothingForAnEmptyStream() throws IOException {
    assertThat(new FixedSizeChunker(new ByteArrayInputStream(new byte[0]), S).next()).isNull();
  }

  @Test
  void chunkSize_mustBeAPowerOfTwoInRange() {
    assertThat(ChunkSize.parse("1MiB")).isEqualTo(1 << 20);
    assertThat(ChunkSize.validate(16 << 20)).isEqualTo(16 << 20);
    assertThatThrownBy(() -> ChunkSize.validate(32 * 1024)).hasMessageContaining("was 32768");
    assertThatThrownBy(() -> ChunkSize.validate(100_000)).hasMessageContaining("power of two");
    assertThatThrownBy(() -> ChunkSize.validate(32 << 20)).hasMessageContaining("16MiB");
  }

  static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }
}
