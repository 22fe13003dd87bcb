package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.nio.NioEventLoopGroup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.net.PeerConnection;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.security.GridToken;
import org.cairn.core.security.Ticket;
import org.cairn.core.security.TicketSigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Capabilities on the data plane with real processes. A hostile donor holds what every peer
 * holds: the data-plane key, and the tickets clients present to it. With them it tries to read,
 * overwrite and delete another peer's pieces: with no ticket, a forged one, one replayed from its
 * own connection, and an expired one. Each attempt is refused and closes the connection; the victim
 * keeps running and the version still fetches byte for byte.
 */
class DataPlaneTicketsIT {
  @TempDir
  Path root;

  /** The data plane's TLS, as the grid's token pins it. */
  private io.netty.handler.ssl.SslContext tls;

  @Test
  void aDonorCannotReadOverwriteOrDeleteAnotherPeersPieces() throws Exception {
    NioEventLoopGroup group = new NioEventLoopGroup(1);
    try (MiniGrid grid = new MiniGrid(root, Duration.ofMillis(500))) {
      grid.startTrackerWithRoles();
      // the peers serve TLS (the default): the attacker's connections trust the CA the tokens pin, as any donor's do
      tls = org.cairn.core.net.DataTls.client(GridToken.readFile(grid.tokenFile()).caPin().orElseThrow());
      List<MiniGrid.Node> peers = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        peers.add(grid.startPeer("p" + i));
      }
      MiniGrid.await("5 peers", Duration.ofSeconds(30), () -> grid.peers().size() == 5);
      byte[] image = new byte[3 << 20];
      new Random(18).nextBytes(image);
      Path input = Files.write(root.resolve("img"), image);
      MiniGrid.Cli store = grid.cli("store", input.toString(), "--app", "heat", "--node", "n1");
      assertThat(store.exit()).as(store.stderr()).isZero();

      // a piece on the victim, and the attacker: another donor, with the data-plane key every peer has
      JsonNode located = grid.get("/api/v1/manifest?app=heat&node=n1").json();
      JsonNode chunk = located.get("chunks").elements().next();
      JsonNode held = chunk.get("holders").get(0);
      MiniGrid.Node victim = peers.stream().filter(p -> p.peerId().equals(held.get("id").asText())).findFirst().orElseThrow();
      MiniGrid.Node attacker = peers.stream().filter(p -> p != victim).findFirst().orElseThrow();
      ChunkId chunkId = ChunkId.parse(chunk.get("id").asText());
      FragmentKey key = new FragmentKey(chunkId, 0, FragmentKey.parseTag(held.get("tag").asText()));
      GridToken dataKey = GridToken.readFile(root.resolve("p" + peers.indexOf(attacker)).resolve("dataplane.key"));
      // a ticket the attacker has seen: a client presented it on the attacker's own connection
      byte[] attackersOwn = grid.ticket("READ", attacker.peerId(), List.of(chunkId), null);
      byte[] expired = grid.ticket("READ", victim.peerId(), List.of(chunkId), 1L);
      byte[] forged = TicketSigner.generate().sign(new Ticket(Ticket.Op.READ, System.currentTimeMillis() + 600_000, victim.peerId(),
          "client:forged", List.of(chunkId), null)).encode();

      // GET with no ticket
      assertThat(refusal(group, victim, dataKey, FrameType.GET, key.toBytes())).contains("no READ ticket");
      // a forged ticket, the attacker's own ticket replayed, an expired one
      assertThat(refusal(group, victim, dataKey, FrameType.TICKET, forged)).contains("not signed");
      assertThat(refusal(group, victim, dataKey, FrameType.TICKET, attackersOwn)).contains("for peer " + attacker.peerId());
      long until = Ticket.decode(expired).expiresAt();
      MiniGrid.await("the 1 s ticket to expire", Duration.ofSeconds(5), () -> System.currentTimeMillis() > until);
      assertThat(refusal(group, victim, dataKey, FrameType.TICKET, expired)).contains("expired");
      // overwrite: a PUT of a forged piece under the victim's key, with no WRITE ticket
      byte[] bogus = new byte[200];
      System.arraycopy("CRNF".getBytes(StandardCharsets.US_ASCII), 0, bogus, 0, 4);
      System.arraycopy(chunkId.toBytes(), 0, bogus, 28, 32);
      ByteBuf batch = Unpooled.buffer();
      org.cairn.core.protocol.FragmentBatch.encode(List.of(bogus), batch);
      assertThat(refusal(group, victim, dataKey, FrameType.PUT, io.netty.buffer.ByteBufUtil.getBytes(batch))).contains("no WRITE ticket");
      batch.release();
      // delete, and listing what the victim holds
      ByteBuf keys = Unpooled.buffer();
      FragmentKey.encodeList(List.of(key), keys);
      assertThat(text(call(group, victim, dataKey, FrameType.DELETE, io.netty.buffer.ByteBufUtil.getBytes(keys))))
          .contains("DELETE is not accepted");
      keys.release();
      assertThat(refusal(group, victim, dataKey, FrameType.INVENTORY, new byte[0])).contains("no LIST ticket");

      // nothing lost: the victim runs and the version fetches whole
      assertThat(victim.process().isAlive()).isTrue();
      Path out = root.resolve("out");
      MiniGrid.Cli fetch = grid.cli("fetch", "--app", "heat", "--node", "n1", "-o", out.toString());
      assertThat(fetch.exit()).as(fetch.stderr()).isZero();
      assertThat(out).hasBinaryContent(image);
      assertThat(victim.stderr()).contains("closing data connection");
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }

  /** One request on a fresh authenticated connection: the peer must answer ERROR and close it. */
  private String refusal(NioEventLoopGroup group, MiniGrid.Node peer, GridToken dataKey, FrameType type, byte[] payload)
      throws Exception {
    PeerConnection c = PeerConnection.connect(group, peer.address(), dataKey, Duration.ofSeconds(5), tls).get(10, TimeUnit.SECONDS);
    try {
      Frame answer = c.call(type, Unpooled.wrappedBuffer(payload)).get(10, TimeUnit.SECONDS);
      try {
        assertThat(answer.type()).as(type + " answered").isEqualTo(FrameType.ERROR);
        String why = answer.payload().toString(StandardCharsets.UTF_8);
        MiniGrid.await("the peer to close the connection after " + type, Duration.ofSeconds(5), () -> !c.isActive());
        return why;
      } finally {
        answer.release();
      }
    } finally {
      c.close();
    }
  }

  private Frame call(NioEventLoopGroup group, MiniGrid.Node peer, GridToken dataKey, FrameType type, byte[] payload) throws Exception {
    PeerConnection c = PeerConnection.connect(group, peer.address(), dataKey, Duration.ofSeconds(5), tls).get(10, TimeUnit.SECONDS);
    try {
      return c.call(type, Unpooled.wrappedBuffer(payload)).get(10, TimeUnit.SECONDS);
    } finally {
      c.close();
    }
  }

  private static String text(Frame f) {
    try {
      return f.type() + ": " + f.payload().toString(StandardCharsets.UTF_8);
    } finally {
      f.release();
    }
  }
}
