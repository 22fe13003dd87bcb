package org.cairn.bench.jmh;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.security.Ticket;
import org.cairn.core.security.TicketSigner;
import org.cairn.core.security.TicketVerifier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What data-plane tickets cost. The tracker signs one per host per store {@code pending}
 * call (and per holder per manifest); a peer decodes and checks each ticket presented to it.
 * Microseconds per ticket naming {@code chunks} chunks.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TicketBenchmark {
  @Param({"1", "8", "1024"})
  int chunks;

  private TicketSigner signer;
  private TicketVerifier verifier;
  private Ticket unsigned;
  private byte[] encoded;

  @Setup
  public void setUp() {
    signer = TicketSigner.generate();
    verifier = TicketVerifier.of(signer.peerKey("peer-0001"));
    List<ChunkId> ids = new ArrayList<>();
    for (int i = 0; i < chunks; i++) {
      ids.add(ChunkId.of(("chunk " + i).getBytes(StandardCharsets.UTF_8)));
    }
    unsigned = new Ticket(Ticket.Op.WRITE, System.currentTimeMillis() + 3_600_000, "peer-0001", "client:tok-1234", ids, null);
    encoded = signer.sign(unsigned).encode();
  }

  @Benchmark
  public byte[] sign() {
    return signer.sign(unsigned).encode();
  }

  @Benchmark
  public Ticket decodeAndCheck() {
    return verifier.check(Ticket.decode(encoded), "peer-0001", System.currentTimeMillis());
  }
}
