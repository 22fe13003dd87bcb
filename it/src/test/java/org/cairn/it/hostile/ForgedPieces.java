package org.cairn.it.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.nio.NioEventLoopGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.cairn.core.compress.CompressionType;
import org.cairn.core.erasure.Codec;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.net.PeerClient;
import org.cairn.core.protocol.FragmentBatch;
import org.cairn.core.security.GridToken;
import org.cairn.core.security.Ticket;

/**
 * A hostile client's PUTs: with WRITE tickets it was granted for another app's chunk ids, it sends
 * each holder forged pieces of those chunks at the index the holder keeps (random payloads, so new
 * tags). What the peers answer is printed; whether it did harm is for the test to check (the
 * victim's holders, tags and bytes).
 */
final class ForgedPieces {
  private ForgedPieces() {}

  /**
   * @param chunks the victim's chunks as the admin's manifest lists them (hex id to its holders)
   * @param tickets the {@code TicketGrant}s ({@code peer}, {@code address}, {@code ticket}) the attacker got
   * @param tlsPin the CA pin on a grid whose data plane runs TLS, else empty
   */
  static void put(Api api, String attacker, Map<String, JsonNode> chunks, List<JsonNode> tickets, Optional<String> tlsPin)
      throws Exception {
    Api.Reply key = api.get("/api/v1/dataplane", attacker);
    if (key.status() != 200) {
      System.out.println("ForgedPieces: no data-plane key: " + key);
      return;
    }
    NioEventLoopGroup group = new NioEventLoopGroup(1);
    Random random = new Random(42);
    try (PeerClient peers = new PeerClient(group, GridToken.of(key.json().get("key").asText()), Duration.ofSeconds(10))) {
      tlsPin.ifPresent(peers::useTls);
      for (JsonNode grant : tickets) {
        String peer = grant.get("peer").asText();
        String address = grant.get("address").asText();
        peers.addTickets(address, List.of(Ticket.fromBase64(grant.get("ticket").asText())));
        List<Fragment> forged = forgedFor(peer, chunks, random);
        if (forged.isEmpty()) {
          continue;
        }
        ByteBuf batch = Unpooled.buffer();
        FragmentBatch.encodeFragments(forged, batch);
        try {
          Object reply = peers.put(address, batch).get(20, TimeUnit.SECONDS);
          System.out.println("ForgedPieces: PUT of " + forged.size() + " forged pieces to " + peer + ": " + reply);
        } catch (Exception e) {
          System.out.println("ForgedPieces: PUT to " + peer + " failed: " + e);
        }
      }
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
    }
  }

  private static List<Fragment> forgedFor(String peer, Map<String, JsonNode> chunks, Random random) {
    List<Fragment> out = new ArrayList<>();
    chunks.forEach((hex, c) -> {
      JsonNode holders = c.get("holders");
      int k = 2;
      int m = Math.max(1, holders.size() - k);
      for (int i = 0; i < holders.size() && i < m + k; i++) {
        if (holders.get(i).path("id").asText().equals(peer)) {
          byte[] payload = new byte[512];
          random.nextBytes(payload);
          out.add(Fragment.create(ChunkId.parse(hex), Codec.REED_SOLOMON, CompressionType.NONE, i, m, k, 1024, 1024, payload));
        }
      }
    });
    return out;
  }
}
