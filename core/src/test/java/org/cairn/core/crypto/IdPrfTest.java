package org.cairn.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeyTemplates;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.prf.PrfConfig;
import com.google.crypto.tink.prf.PrfSet;
import java.util.Arrays;
import java.util.Random;
import org.cairn.core.hash.ChunkId;
import org.junit.jupiter.api.Test;

/** Chunk ids of a slice, fed to the JCE HMAC directly, are Tink's PRF of the slice's copy: dedup across both is unchanged. */
class IdPrfTest {
  @Test
  void aSliceHashedInPlace_hasTheIdTinksPrfGivesItsCopy() throws Exception {
    PrfConfig.register();
    KeysetHandle keys = KeysetHandle.generateNew(KeyTemplates.get("HMAC_SHA256_PRF"));
    PrfSet tink = keys.getPrimitive(RegistryConfiguration.get(), PrfSet.class);
    IdPrf ids = IdPrf.of(keys, tink);
    assertThat(ids.getClass().getSimpleName()).as("an HMAC-SHA256 key is hashed in place").isEqualTo("Jce");
    Random random = new Random(19);
    byte[] buffer = new byte[3 << 20];
    random.nextBytes(buffer);
    int[][] slices = {{0, buffer.length}, {0, 1 << 20}, {17, 1000}, {5, 0}, {1 << 20, (2 << 20) - 3}, {buffer.length - 1, 1}};
    for (int[] s : slices) {
      byte[] copy = Arrays.copyOfRange(buffer, s[0], s[0] + s[1]);
      assertThat(ids.id(buffer, s[0], s[1])).as("slice at %d of %d bytes", s[0], s[1])
          .isEqualTo(ChunkId.fromBytes(tink.computePrimary(copy, ChunkId.LENGTH)));
    }
    // the same Mac serves the next chunk afresh (doFinal resets it)
    assertThat(ids.id(buffer, 17, 1000)).isEqualTo(ids.id(Arrays.copyOfRange(buffer, 17, 1017), 0, 1000));
  }
}
