package org.cairn.core.erasure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReedSolomonTest {

  /** Every erasure pattern of up to k shards, for every small code. */
  @ParameterizedTest(name = "{0}+{1}")
  @CsvSource({"1,1", "2,1", "3,2", "4,2", "5,3", "6,3", "4,4", "8,4", "2,6"})
  void reconstruct_everyErasurePatternUpToK(int m, int k) {
    Random random = new Random(31L * m + k);
    int size = 1000 + random.nextInt(CodingLoop.BLOCK * 2); // spans block boundaries
    ReedSolomon rs = new ReedSolomon(m, k);
    byte[][] original = encoded(rs, size, random);
    int n = m + k;
    int patterns = 0;
    for (int mask = 0; mask < (1 << n); mask++) {
      if (Integer.bitCount(mask) > k) {
        continue;
      }
      byte[][] shards = new byte[n][];
      boolean[] present = new boolean[n];
      for (int i = 0; i < n; i++) {
        boolean lost = (mask & (1 << i)) != 0;
        present[i] = !lost;
        shards[i] = lost ? garbage(size, random) : original[i].clone();
      }
      rs.reconstruct(shards, present, 0, size);
      for (int i = 0; i < n; i++) {
        assertThat(shards[i]).as("%d+%d mask %s shard %d", m, k, Integer.toBinaryString(mask), i).isEqualTo(original[i]);
      }
      patterns++;
    }
    assertThat(patterns).isGreaterThan(n);
  }

  /** Large codes: random patterns of exactly k losses. */
  @ParameterizedTest(name = "{0}+{1}")
  @CsvSource({"17,3", "20,10", "64,32", "200,56", "128,128"})
  void reconstruct_randomPatternsForLargeCodes(int m, int k) {
    Random random = new Random(7L * m + k);
    int size = 257;
    ReedSolomon rs = new ReedSolomon(m, k);
    byte[][] original = encoded(rs, size, random);
    for (int trial = 0; trial < 20; trial++) {
      boolean[] present = new boolean[m + k];
      java.util.Arrays.fill(present, true);
      int lost = 0;
      while (lost < k) {
        int i = random.nextInt(m + k);
        if (present[i]) {
          present[i] = false;
          lost++;
        }
      }
      byte[][] shards = new byte[m + k][];
      for (int i = 0; i < m + k; i++) {
        shards[i] = present[i] ? original[i].clone() : new byte[size];
      }
      rs.reconstruct(shards, present, 0, size);
      for (int i = 0; i < m + k; i++) {
        assertThat(shards[i]).as("trial %d shard %d", trial, i).isEqualTo(original[i]);
      }
    }
  }

  @Test
  void encodeParity_respectsOffsetAndCount() {
    Random random = new Random(5);
    ReedSolomon rs = new ReedSolomon(3, 2);
    byte[][] whole = encoded(rs, 300, random);
    byte[][] part = new byte[5][300];
    for (int i = 0; i < 3; i++) {
      part[i] = whole[i].clone();
    }
    rs.encodeParity(part, 100, 50);
    for (int p = 3; p < 5; p++) {
      assertThat(java.util.Arrays.copyOfRange(part[p], 100, 150)).isEqualTo(java.util.Arrays.copyOfRange(whole[p], 100, 150));
      assertThat(java.util.Arrays.copyOfRange(part[p], 0, 100)).containsOnly((byte) 0);
    }
  }

  @Test
  void isParityCorrect_detectsAFlippedByte() {
    Random random = new Random(9);
    ReedSolomon rs = new ReedSolomon(4, 2);
    byte[][] shards = encoded(rs, 4096, random);
    assertThat(rs.isParityCorrect(shards, 0, 4096)).isTrue();
    shards[1][4000] ^= 0x40;
    assertThat(rs.isParityCorrect(shards, 0, 4096)).isFalse();
  }

  @Test
  void reconstruct_refusesWithFewerThanMShards() {
    ReedSolomon rs = new ReedSolomon(4, 2);
    byte[][] shards = new byte[6][16];
    boolean[] present = {true, false, true, false, false, true};
    assertThatThrownBy(() -> rs.reconstruct(shards, present, 0, 16))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("need at least 4 of 6 shards");
  }

  @Test
  void constructor_rejectsBadParameters() {
    assertThatThrownBy(() -> new ReedSolomon(0, 2)).hasMessageContaining("data shards must be at least 1, was 0");
    assertThatThrownBy(() -> new ReedSolomon(200, 57)).hasMessageContaining("at most 256");
    assertThatThrownBy(() -> new ReedSolomon(3, 0)).hasMessageContaining("parity shards must be at least 1");
  }

  @Test
  void galoisField_multiplicationAgreesWithCarrylessReference() {
    for (int a = 0; a < 256; a++) {
      for (int b = 0; b < 256; b++) {
        int product = 0;
        int x = a;
        for (int bit = 0; bit < 8; bit++) {
          if ((b & (1 << bit)) != 0) {
            product ^= x;
          }
          x <<= 1;
          if ((x & 0x100) != 0) {
            x ^= GaloisField.POLYNOMIAL;
          }
        }
        assertThat(GaloisField.multiply(a, b)).as("%d * %d", a, b).isEqualTo(product);
        if (b != 0) {
          assertThat(GaloisField.divide(product, b)).isEqualTo(a);
        }
      }
    }
  }

  static byte[][] encoded(ReedSolomon rs, int size, Random random) {
    byte[][] shards = new byte[rs.totalShards()][size];
    for (int i = 0; i < rs.dataShards(); i++) {
      random.nextBytes(shards[i]);
    }
    rs.encodeParity(shards, 0, size);
    return shards;
  }

  private static byte[] garbage(int size, Random random) {
    byte[] b = new byte[size];
    random.nextBytes(b);
    return b;
  }
}
