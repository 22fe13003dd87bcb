package org.cairn.sim.fleet;

import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.cairn.core.api.member.RegisterRequest;

/**
 * What a simulated donor sends to join, as a real peer does (peer's PeerDaemon and PeerTls): its id and data address,
 * an empty store within its quota, and on a TLS grid a fresh EC P-256 public key for the tracker's CA to certify.
 * The private key is dropped: a simulated donor serves no data plane.
 */
final class Enrollment {
  static final long QUOTA = 100L << 30;
  static final String VERSION = "cairn-sim";

  private Enrollment() {}

  static SimDonor donor(int index, boolean tls) {
    return new SimDonor(index, SimDonor.id(index), SimDonor.address(index), tls ? publicKey() : null);
  }

  static RegisterRequest request(SimDonor d, SplittableRandom instance) {
    return new RegisterRequest(d.id, d.address, "RUNNING", QUOTA, 0, QUOTA, 0, false, VERSION, d.publicKey,
        HexFormat.of().toHexDigits(instance.nextLong()));
  }

  private static String publicKey() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"));
      return Base64.getEncoder().encodeToString(g.generateKeyPair().getPublic().getEncoded());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JDK cannot make EC P-256 keys: " + e.getMessage(), e);
    }
  }
}
