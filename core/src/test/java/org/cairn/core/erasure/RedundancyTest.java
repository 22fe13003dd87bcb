package org.cairn.core.erasure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.cairn.core.CorruptDataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RedundancyTest {

  @ParameterizedTest
  @ValueSource(strings = {"code:3+2", "code:4+2", "code:1+1", "cauchy:3+2", "cauchy:4+2", "cauchy:10+4", "replicate:1", "replicate:3"})
  void decode_survivesEveryLossOfUpToKFragments(String spec) throws CorruptDataException {
    Redundancy r = Redundancy.parse(spec);
    assertThat(r.spec()).isEqualTo(spec);
    Random random = new Random(spec.hashCode());
    for (int length : new int[] {0, 1, 63, 64, 1000, 65_537, 300_001}) {
      byte[] payload = new byte[length + 10];
      random.nextBytes(payload);
      byte[][] fragments = r.encode(payload, 5, length);
      assertThat(fragments.length).isEqualTo(r.totalFragments());
      for (byte[] f : fragments) {
        assertThat(f).hasSize(r.fragmentSize(length));
      }
      byte[] expected = java.util.Arrays.copyOfRange(payload, 5, 5 + length);
      int n = r.totalFragments();
      for (int mask = 0; mask < (1 << n); mask++) {
        if (Integer.bitCount(mask) > r.parityFragments()) {
          continue;
        }
        byte[][] partial = new byte[n][];
        for (int i = 0; i < n; i++) {
          partial[i] = (mask & (1 << i)) != 0 ? null : fragments[i].clone();
        }
        assertThat(r.decode(partial, length)).as("%s length %d lost %s", spec, length, Integer.toBinaryString(mask)).isEqualTo(expected);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"code:4+2", "code:3+2", "cauchy:4+2", "cauchy:10+4", "replicate:3"})
  void complete_givesWhatDecodingAndEncodingAgainGives_fromEveryMFragments(String spec) throws CorruptDataException {
    Redundancy r = Redundancy.parse(spec);
    Random random = new Random(spec.hashCode() + 1);
    int n = r.totalFragments();
    for (int length : new int[] {0, 1, 1000, 65_537}) {
      byte[] payload = new byte[length];
      random.nextBytes(payload);
      byte[][] fragments = r.encode(payload, 0, length);
      for (int mask = 0; mask < (1 << n); mask++) {
        if (Integer.bitCount(mask) < r.dataFragments()) {
          continue;
        }
        byte[][] partial = new byte[n][];
        for (int i = 0; i < n; i++) {
          partial[i] = (mask & (1 << i)) != 0 ? fragments[i].clone() : null;
        }
        byte[][] all = r.complete(partial, length);
        assertThat(all).as("%s length %d held %s", spec, length, Integer.toBinaryString(mask)).isDeepEqualTo(fragments);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"code:4+2", "cauchy:4+2"})
  void complete_codesOnlyWhatIsMissing_theMGivenComeBackAsGiven(String spec) throws CorruptDataException {
    Redundancy r = Redundancy.parse(spec);
    byte[] payload = new byte[40_000];
    new Random(7).nextBytes(payload);
    byte[][] f = r.encode(payload, 0, payload.length);
    byte[][] held = {f[0], f[1], null, f[3], f[4], null}; // a data piece lost: decoding and encoding again re-coded all six

    byte[][] all = r.complete(held, payload.length);

    for (int i : new int[] {0, 1, 3, 4}) {
      assertThat(all[i]).as("piece %d", i).isSameAs(held[i]);
    }
    assertThat(all[2]).isEqualTo(f[2]);
    assertThat(all[5]).isEqualTo(f[5]);
  }

  @Test
  void complete_recodesAGivenFragmentBeyondTheFirstM_soACallerCanCompareIt() throws CorruptDataException {
    Redundancy r = Redundancy.parse("code:4+2");
    byte[] payload = new byte[4000];
    new Random(3).nextBytes(payload);
    byte[][] f = r.encode(payload, 0, payload.length);
    byte[][] held = f.clone();
    held[5] = f[5].clone();
    held[5][17] ^= 1; // a fifth piece that disagrees

    byte[][] all = r.complete(held, payload.length);

    assertThat(all[5]).isEqualTo(f[5]).isNotEqualTo(held[5]);
  }

  @ParameterizedTest
  @ValueSource(strings = {"code:4+2", "cauchy:4+2"})
  void complete_refusesFragmentsThatMakeNoZeroPaddedPayload(String spec) throws CorruptDataException {
    Redundancy r = Redundancy.parse(spec);
    int length = 4001; // padding at the end of the last data piece
    byte[][] f = r.encode(new byte[length], 0, length);
    byte[][] held = {f[0], f[1], null, null, f[4], f[5]};
    held[4] = f[4].clone();
    held[4][f[4].length - 1] ^= 1; // parity that puts a non-zero byte in data piece 2's or 3's padding

    assertThatThrownBy(() -> r.complete(held, length)).isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("non-zero padding");
    assertThatThrownBy(() -> r.complete(new byte[][] {f[0], null, null, null, null, f[5]}, length))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("need 4 of 6");
  }

  @Test
  void decode_refusesTooFewFragmentsOrWrongSizes() {
    Redundancy r = Redundancy.parse("code:4+2");
    byte[][] f = r.encode(new byte[4000], 0, 4000);
    byte[][] three = {f[0], null, f[2], null, null, f[5]};
    assertThatThrownBy(() -> r.decode(three, 4000)).isInstanceOf(CorruptDataException.class).hasMessageContaining("need 4 of 6");
    byte[][] shortOne = f.clone();
    shortOne[1] = new byte[10];
    assertThatThrownBy(() -> r.decode(shortOne, 4000)).isInstanceOf(CorruptDataException.class).hasMessageContaining("fragment 1 has 10 bytes");
  }

  @Test
  void parse_namesTheBadSpec() {
    assertThat(Redundancy.parse("rs:4+2").spec()).isEqualTo("code:4+2");
    assertThatThrownBy(() -> Redundancy.parse("code:4")).hasMessageContaining("'code:4'");
    assertThatThrownBy(() -> Redundancy.parse("mirror:2")).hasMessageContaining("code:M+K, cauchy:M+K or replicate:R");
    assertThatThrownBy(() -> Redundancy.parse("code:250+10")).hasMessageContaining("at most 256");
    assertThatThrownBy(() -> Redundancy.parse("replicate:0")).hasMessageContaining("between 1 and 256");
  }

  @Test
  void codecIds_roundTrip() {
    for (Codec c : Codec.values()) {
      assertThat(Codec.fromId(c.id())).isEqualTo(c);
    }
    assertThat(Redundancy.of(Codec.CAUCHY, 4, 2).spec()).isEqualTo("cauchy:4+2");
    assertThat(Redundancy.of(Codec.REPLICATE, 1, 2).spec()).isEqualTo("replicate:3");
  }
}
