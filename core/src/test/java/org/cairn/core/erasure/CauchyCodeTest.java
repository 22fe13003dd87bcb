package org.cairn.core.erasure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The XOR code against an independent reference: bit q of byte t across a shard's 8 packets is
 * one GF(2^8) symbol, and parity symbols are the generator matrix times data symbols. The
 * vectors in test resources (cauchy-vectors/) were produced by {@link #reference} and pin the
 * format: if the code changes, stored fragments would stop decoding, so these must not change.
 */
class CauchyCodeTest {
  static final String[] VECTOR_CODES = {"1+1", "2+1", "3+2", "4+2", "5+3", "8+4", "10+4", "17+3"};

  @ParameterizedTest(name = "{0}+{1}")
  @CsvSource({"1,1", "3,2", "4,2", "5,3", "4,4", "8,4", "2,6"})
  void encode_matchesReferenceAndSurvivesEveryErasurePattern(int m, int k) {
    Random random = new Random(13L * m + k);
    int size = 64 * 37; // packets of 296 bytes: not a multiple of the block, exercises the tail
    CauchyCode code = new CauchyCode(m, k);
    byte[][] shards = new byte[m + k][size];
    for (int i = 0; i < m; i++) {
      random.nextBytes(shards[i]);
    }
    code.encodeParity(shards);
    assertThat(shards).isDeepEqualTo(reference(code, shards));
    int n = m + k;
    for (int mask = 0; mask < (1 << n); mask++) {
      if (Integer.bitCount(mask) > k) {
        continue;
      }
      byte[][] damaged = new byte[n][];
      boolean[] present = new boolean[n];
      for (int i = 0; i < n; i++) {
        present[i] = (mask & (1 << i)) == 0;
        damaged[i] = present[i] ? shards[i].clone() : new byte[size];
      }
      code.reconstruct(damaged, present);
      assertThat(damaged).as("mask %s", Integer.toBinaryString(mask)).isDeepEqualTo(shards);
    }
  }

  @Test
  void goodCauchy_hasFewerOnesThanThePlainMatrix() {
    CauchyCode code = new CauchyCode(4, 2);
    // row 0 is all ones: 4 identity bit-matrices = 32 ones; a random row averages 4 x 32
    assertThat(code.parityOnes()).isLessThan(32 + 4 * 32);
  }

  @TestFactory
  Stream<DynamicTest> vectors_match() {
    return Stream.of(VECTOR_CODES).flatMap(code -> Stream.of(64, 1024).map(size -> {
      String name = "cauchy-" + code.replace('+', '-') + "-" + size + ".json";
      return DynamicTest.dynamicTest(name, () -> checkVector(name));
    }));
  }

  private static void checkVector(String name) throws IOException {
    JsonNode v;
    try (InputStream in = CauchyCodeTest.class.getResourceAsStream("/cauchy-vectors/" + name)) {
      assertThat(in).as(name).isNotNull();
      v = new ObjectMapper().readTree(in);
    }
    int m = v.get("dataShards").asInt();
    int k = v.get("parityShards").asInt();
    int size = v.get("shardSize").asInt();
    byte[][] expected = new byte[m + k][];
    for (int i = 0; i < m + k; i++) {
      expected[i] = HexFormat.of().parseHex(v.get("shards").get(i).asText());
    }
    Redundancy r = Redundancy.parse("cauchy:" + m + "+" + k);
    byte[] payload = new byte[m * size];
    for (int i = 0; i < m; i++) {
      System.arraycopy(expected[i], 0, payload, i * size, size);
    }
    byte[][] actual = r.encode(payload, 0, payload.length);
    assertThat(actual).isDeepEqualTo(expected);
  }

  /** Reference encoder over GF(2^8) symbols; shares nothing with the XOR schedule but the matrix. */
  static byte[][] reference(CauchyCode code, byte[][] data) {
    int m = code.dataShards();
    int k = code.parityShards();
    int packet = data[0].length / 8;
    Matrix generator = generatorOf(code);
    byte[][] out = new byte[m + k][];
    for (int i = 0; i < m; i++) {
      out[i] = data[i].clone();
    }
    for (int p = 0; p < k; p++) {
      out[m + p] = new byte[8 * packet];
    }
    for (int t = 0; t < packet; t++) {
      for (int q = 0; q < 8; q++) {
        for (int p = 0; p < k; p++) {
          int symbol = 0;
          for (int j = 0; j < m; j++) {
            int s = 0;
            for (int c = 0; c < 8; c++) {
              s |= ((data[j][c * packet + t] >>> q) & 1) << c;
            }
            symbol ^= GaloisField.multiply(generator.get(m + p, j), s);
          }
          for (int r = 0; r < 8; r++) {
            out[m + p][r * packet + t] |= (byte) (((symbol >>> r) & 1) << q);
          }
        }
      }
    }
    return out;
  }

  private static Matrix generatorOf(CauchyCode code) {
    try {
      java.lang.reflect.Field f = CauchyCode.class.getDeclaredField("generator");
      f.setAccessible(true);
      return (Matrix) f.get(code);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /** Writes the vectors from the reference encoder; run once, output committed. */
  public static void main(String[] args) throws IOException {
    java.nio.file.Path dir = java.nio.file.Path.of(args[0]);
    java.nio.file.Files.createDirectories(dir);
    for (String spec : VECTOR_CODES) {
      int m = Integer.parseInt(spec.split("\\+")[0]);
      int k = Integer.parseInt(spec.split("\\+")[1]);
      for (int size : new int[] {64, 1024}) {
        CauchyCode code = new CauchyCode(m, k);
        Random random = new Random(1000L * m + 10L * k + size);
        byte[][] data = new byte[m + k][size];
        for (int i = 0; i < m; i++) {
          random.nextBytes(data[i]);
        }
        byte[][] all = reference(code, data);
        StringBuilder json = new StringBuilder();
        json.append("{\n  \"field\": \"GF(2^8), polynomial 0x11D, generator 2\",\n");
        json.append("  \"matrix\": \"[I; C] with C the k x m Cauchy matrix 1/((r+m) xor c), columns scaled so row 0 is ones, "
            + "other rows scaled to fewest bit-matrix ones; shards are 8 equal packets, XORed as whole bytes\",\n");
        json.append("  \"codec\": \"cauchy\",\n");
        json.append("  \"dataShards\": ").append(m).append(",\n  \"parityShards\": ").append(k).append(",\n");
        json.append("  \"shardSize\": ").append(size).append(",\n  \"shards\": [\n");
        for (int i = 0; i < m + k; i++) {
          json.append("    \"").append(HexFormat.of().formatHex(all[i])).append('"').append(i < m + k - 1 ? ",\n" : "\n");
        }
        json.append("  ]\n}\n");
        java.nio.file.Files.writeString(dir.resolve("cauchy-" + m + "-" + k + "-" + size + ".json"), json.toString());
      }
    }
  }
}
