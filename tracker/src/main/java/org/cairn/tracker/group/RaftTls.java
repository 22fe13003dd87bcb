package org.cairn.tracker.group;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.cairn.tracker.tls.MemberTrust;
import org.cairn.tracker.tls.TrackerCa;

/**
 * The Raft transport of a group with {@code --tls}: every member's gRPC server and its connections to
 * the others use mutual TLS with a member certificate from the group's CA ({@link MemberTrust}), so
 * the log's traffic is encrypted and only the group's members can send or receive it.
 */
final class RaftTls {
  private RaftTls() {
  }

  /** Ratis parameters for member {@code spec.self()}: its certificate, made now, and trust in the group's members only. */
  static Parameters parameters(TrackerCa ca, GroupSpec spec) throws IOException {
    TrackerCa.MemberKeys keys = ca.member(spec.self(), spec.members().get(spec.self()).host());
    try {
      char[] secret = new char[0];
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("member", keys.key(), secret, keys.chain());
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(store, secret);
      KeyManager km = kmf.getKeyManagers()[0];
      Parameters p = new Parameters();
      GrpcConfigKeys.TLS.setConf(p, new GrpcTlsConfig(km, new MemberTrust(keys.chain()[1], spec.members().keySet()), true));
      return p;
    } catch (GeneralSecurityException | IOException e) {
      throw new IOException("cannot set up TLS for the group's Raft traffic: " + e.getMessage(), e);
    }
  }
}
