package org.cairn.client.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.cairn.client.tuning.ClientTuning;
import org.cairn.core.api.catalog.CommitRequest;
import org.cairn.core.api.catalog.PlacementAnswer;
import org.cairn.core.compress.CompressionType;
import org.cairn.core.erasure.Codec;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.protocol.FragmentBatch;
import org.cairn.core.protocol.PutReply;
import org.cairn.core.protocol.SoftAck;
import org.junit.jupiter.api.Test;

/**
 * The piece writer acts on each {@link PutReply} a host gives: stored and soft-stored acknowledge the pieces (a soft
 * one's hold goes to the commit); refused, failed or no answer at all send them to the slot's next alternate; with no
 * alternate left, the pieces fail the store naming why.
 */
class PieceWriterTest {
  /** No linger: each piece leaves at once, so every PUT below carries one piece. */
  private static final ClientTuning TUNING = ClientTuning.defaults().withLinger(0, 0);

  /** A peer client whose hosts answer what each test scripts, by address, in order; it records every PUT. */
  private static final class ScriptedPuts implements PieceWriter.Puts {
    final Map<String, Deque<Object>> answers = new ConcurrentHashMap<>();
    final List<String> calls = new ArrayList<>();

    ScriptedPuts answer(String address, Object... replies) {
      answers.computeIfAbsent(address, a -> new ConcurrentLinkedDeque<>()).addAll(List.of(replies));
      return this;
    }

    @Override
    public synchronized CompletableFuture<PutReply> put(String address, ByteBuf batch, boolean soft) {
      try {
        calls.add(address + (soft ? " PUT_SOFT " : " PUT ") + FragmentBatch.decode(batch.duplicate()).size());
      } finally {
        batch.release();
      }
      Object next = answers.getOrDefault(address, new ConcurrentLinkedDeque<>()).poll();
      return next instanceof Throwable t ? CompletableFuture.failedFuture(t) : CompletableFuture.completedFuture((PutReply) next);
    }
  }

  private static HostSet hosts(int alternates) {
    List<PlacementAnswer.PlacedHost> alts = new ArrayList<>();
    for (int i = 0; i < alternates; i++) {
      alts.add(new PlacementAnswer.PlacedHost("a" + i, "alt" + i + ":7000", null, null, null));
    }
    return new HostSet(new PlacementAnswer("falcon", List.of(new PlacementAnswer.PlacedHost("p0", "peer0:7000", null, null, null)),
        alts, null));
  }

  private static Fragment piece(int seed) {
    byte[] payload = new byte[100 + seed];
    java.util.Arrays.fill(payload, (byte) seed);
    return Fragment.create(ChunkId.of(payload), Codec.REED_SOLOMON, CompressionType.NONE, 0, 1, 0, payload.length, payload.length,
        payload);
  }

  private static String holder(PieceWriter writer, Fragment f) throws Exception {
    return writer.send(0, f).get(10, TimeUnit.SECONDS);
  }

  @Test
  void aStoredReply_acknowledgesThePiecesAsHeldByThatHost_andCountsItsTraffic() throws Exception {
    ScriptedPuts puts = new ScriptedPuts().answer("peer0:7000", new PutReply.Stored(1));
    HostSet hosts = hosts(1);
    PieceWriter writer = new PieceWriter(hosts, puts, Runnable::run, TUNING, false);
    Fragment f = piece(1);
    assertThat(holder(writer, f)).isEqualTo("p0");
    assertThat(puts.calls).containsExactly("peer0:7000 PUT 1");
    assertThat(hosts.replaced()).isEmpty();
    assertThat(writer.traffic().get("p0").bytes).isEqualTo(f.serializedSize());
    assertThat(writer.softHolds()).isEmpty();
  }

  @Test
  void aSoftStoredReply_acknowledgesThePieces_andKeepsTheHostsSoftHoldForTheCommit() throws Exception {
    ScriptedPuts puts = new ScriptedPuts().answer("peer0:7000", new PutReply.SoftStored(new SoftAck(1, 0xabcL, 5)),
        new PutReply.SoftStored(new SoftAck(1, 0xabcL, 9)));
    PieceWriter writer = new PieceWriter(hosts(1), puts, Runnable::run, TUNING, true);
    assertThat(holder(writer, piece(1))).isEqualTo("p0");
    assertThat(holder(writer, piece(2))).isEqualTo("p0");
    assertThat(puts.calls).containsExactly("peer0:7000 PUT_SOFT 1", "peer0:7000 PUT_SOFT 1");
    assertThat(writer.softHolds()).as("the highest soft write number per host boot")
        .containsExactly(new CommitRequest.SoftHold("p0", "abc", 9));
  }

  @Test
  void aRefusedReply_sendsThePiecesToTheNextAlternate_namingTheRefusal() throws Exception {
    ScriptedPuts puts = new ScriptedPuts().answer("peer0:7000", new PutReply.Refused("FULL: disk at 95 %"))
        .answer("alt0:7000", new PutReply.Stored(1), new PutReply.Stored(1));
    HostSet hosts = hosts(2);
    PieceWriter writer = new PieceWriter(hosts, puts, Runnable::run, TUNING, false);
    assertThat(holder(writer, piece(1))).isEqualTo("a0");
    assertThat(puts.calls).containsExactly("peer0:7000 PUT 1", "alt0:7000 PUT 1");
    assertThat(hosts.replaced()).containsExactly("p0 -> a0 (refused the pieces (FULL: disk at 95 %))");
    assertThat(holder(writer, piece(2))).as("the slot's later pieces go to the replacement").isEqualTo("a0");
  }

  @Test
  void aFailedReply_andAFailedCall_eachSendThePiecesToTheNextAlternate() throws Exception {
    ScriptedPuts puts = new ScriptedPuts().answer("peer0:7000", new PutReply.Failed("ERROR: no ticket"))
        .answer("alt0:7000", new ConnectException("connection refused: alt0:7000"))
        .answer("alt1:7000", new PutReply.SoftStored(new SoftAck(1, 1, 1)));
    HostSet hosts = hosts(2);
    PieceWriter writer = new PieceWriter(hosts, puts, Runnable::run, TUNING, true);
    assertThat(holder(writer, piece(1))).isEqualTo("a1");
    assertThat(hosts.replaced()).containsExactly("p0 -> a0 (answered ERROR: no ticket)",
        "a0 -> a1 (failed: connection refused: alt0:7000)");
    assertThat(writer.softHolds()).containsExactly(new CommitRequest.SoftHold("a1", "1", 1));
  }

  @Test
  void withNoAlternateLeft_thePiecesFailTheStore_andLaterPiecesFailAtOnce() {
    ScriptedPuts puts = new ScriptedPuts().answer("peer0:7000", new PutReply.Refused("BUSY: 3 writers"));
    PieceWriter writer = new PieceWriter(hosts(0), puts, Runnable::run, TUNING, false);
    assertThatThrownBy(() -> holder(writer, piece(1))).isInstanceOf(ExecutionException.class).cause()
        .isInstanceOf(IOException.class).hasMessageContaining("host p0 (peer0:7000) refused the pieces (BUSY: 3 writers)")
        .hasMessageContaining("no alternate host is left");
    assertThatThrownBy(() -> holder(writer, piece(2))).cause().isInstanceOf(IOException.class);
    assertThat(puts.calls).as("nothing more is sent to a failed slot").hasSize(1);
  }
}
