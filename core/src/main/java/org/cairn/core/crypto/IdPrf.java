package org.cairn.core.crypto;

import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.prf.HmacPrfKey;
import com.google.crypto.tink.prf.HmacPrfParameters;
import com.google.crypto.tink.prf.PrfSet;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.cairn.core.hash.ChunkId;

/**
 * The keyed chunk id of an app key: HMAC-SHA256 (the key's Tink PRF, truncated to the id's length)
 * of a slice of a buffer. Tink's PRF takes whole arrays, so a chunk in a pooled buffer larger than
 * itself would be copied first (a tenth of a store's CPU on format-aligned chunks); for an
 * HMAC-SHA256 key the JCE {@link Mac} Tink itself uses is fed the slice directly, one instance per
 * thread. Any other key type goes through Tink. The two are checked to agree when the key is loaded.
 */
abstract class IdPrf {
  abstract byte[] compute(byte[] data, int offset, int length) throws GeneralSecurityException;

  ChunkId id(byte[] data, int offset, int length) {
    try {
      return ChunkId.fromBytes(compute(data, offset, length));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("keyed chunk id failed: " + e.getMessage(), e);
    }
  }

  static IdPrf of(KeysetHandle ids, PrfSet prf) throws GeneralSecurityException {
    IdPrf tink = new Tink(prf);
    if (!(ids.getPrimary().getKey() instanceof HmacPrfKey key)
        || key.getParameters().getHashType() != HmacPrfParameters.HashType.SHA256) {
      return tink;
    }
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key.getKeyBytes().toByteArray(InsecureSecretKeyAccess.get()), "HmacSHA256"));
    IdPrf jce = new Jce(mac);
    byte[] probe = "cairn-id-prf-check".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    return Arrays.equals(jce.compute(probe, 0, probe.length), tink.compute(probe, 0, probe.length)) ? jce : tink;
  }

  private static final class Tink extends IdPrf {
    private final PrfSet prf;

    Tink(PrfSet prf) {
      this.prf = prf;
    }

    @Override
    byte[] compute(byte[] data, int offset, int length) throws GeneralSecurityException {
      return prf.computePrimary(KeyedChunks.exact(data, offset, length), ChunkId.LENGTH);
    }
  }

  private static final class Jce extends IdPrf {
    private final ThreadLocal<Mac> macs;

    Jce(Mac prototype) {
      this.macs = ThreadLocal.withInitial(() -> {
        try {
          return (Mac) prototype.clone();
        } catch (CloneNotSupportedException e) {
          throw new IllegalStateException("HmacSHA256 cannot be cloned", e);
        }
      });
    }

    @Override
    byte[] compute(byte[] data, int offset, int length) {
      Mac mac = macs.get();
      mac.update(data, offset, length);
      byte[] out = mac.doFinal(); // resets the Mac for the next chunk
      return out.length == ChunkId.LENGTH ? out : Arrays.copyOf(out, ChunkId.LENGTH);
    }
  }
}
