package org.cairn.tracker.recovery;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.cairn.core.CorruptDataException;
import org.cairn.core.catalog.CatalogRecord;
import org.cairn.core.crypto.CatalogKey;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.net.PeerClient;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.PieceReply;
import org.cairn.core.security.Ticket;
import org.cairn.core.security.TicketSigner;
import org.cairn.tracker.catalog.CatalogRebuild;
import org.cairn.tracker.catalog.ChunkRecord;
import org.cairn.tracker.catalog.RecordContent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * The peers' side of recovery: asks each peer who it is (IDENTIFY), lists every key it
 * holds (INVENTORY, with a LIST ticket the recovering tracker signs with the grid's ticket key), then
 * reads the catalog records among them (GET with READ tickets, any m pieces of each), opens them with
 * the catalog key and parses them. One peer at a time; a peer that cannot be reached is reported and
 * skipped (its pieces count as missing, which repair mends once the grid runs again).
 */
final class PeerSweep {
  private static final Logger LOG = LoggerFactory.getLogger(PeerSweep.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TICKET_LIFE = Duration.ofMinutes(30);

  /** One piece a peer holds. */
  record Held(String peer, FragmentKey key) {}

  /** What the sweep found: peers by id (their data addresses), every held key by chunk, the records opened, what went wrong. */
  record Result(Map<String, String> peers, Map<ChunkId, List<Held>> held, List<CatalogRebuild.Found> records, List<String> problems) {}

  private final PeerClient client;
  private final TicketSigner tickets;
  private final String catalogKey;
  private final Clock clock;
  private final Duration timeout;

  PeerSweep(PeerClient client, TicketSigner tickets, String catalogKey, Clock clock, Duration timeout) {
    this.client = client;
    this.tickets = tickets;
    this.catalogKey = catalogKey;
    this.clock = clock;
    this.timeout = timeout;
  }

  Result sweep(List<String> addresses) {
    Map<String, String> peers = new LinkedHashMap<>();
    Map<ChunkId, List<Held>> held = new HashMap<>();
    List<String> problems = new ArrayList<>();
    for (String address : addresses) {
      try {
        String id = wait(client.identify(address));
        if (id.isEmpty()) {
          problems.add(address + ": the peer has not registered with a tracker since it started; restart it, then recover again");
          continue;
        }
        if (peers.containsKey(id)) {
          problems.add(address + ": peer " + id + " was already listed at " + peers.get(id));
          continue;
        }
        client.addTickets(address, List.of(tickets.sign(new Ticket(Ticket.Op.LIST, expiry(), id, "recovery", List.of(), null))));
        long keys = 0;
        FragmentKey after = null;
        PeerClient.InventoryPage page;
        do {
          page = wait(client.inventory(address, after));
          for (FragmentKey k : page.keys()) {
            held.computeIfAbsent(k.chunkId(), c -> new ArrayList<>(6)).add(new Held(id, k));
          }
          keys += page.keys().size();
          after = page.keys().isEmpty() ? after : page.keys().get(page.keys().size() - 1);
        } while (page.more() && !page.keys().isEmpty());
        peers.put(id, address);
        LOG.info("peer {} at {} holds {} pieces", id, address, keys);
      } catch (IOException e) {
        problems.add(address + ": " + e.getMessage());
      }
    }
    List<CatalogRebuild.Found> records = new ArrayList<>();
    for (Map.Entry<ChunkId, List<Held>> e : held.entrySet()) {
      if (CatalogRecord.isRecord(e.getKey())) {
        try {
          records.add(open(e.getKey(), e.getValue(), peers));
        } catch (IOException | GeneralSecurityException ex) {
          problems.add("catalog record " + e.getKey().shortHex() + ": " + ex.getMessage());
        }
      }
    }
    return new Result(peers, held, records, problems);
  }

  /** Reads pieces of one record until it decodes, then opens and parses it. */
  private CatalogRebuild.Found open(ChunkId id, List<Held> pieces, Map<String, String> peers) throws IOException, GeneralSecurityException {
    List<Fragment> got = new ArrayList<>();
    int needed = Integer.MAX_VALUE;
    for (Held h : pieces) {
      if (got.size() >= needed) {
        break;
      }
      String address = peers.get(h.peer());
      client.addTickets(address, List.of(tickets.sign(new Ticket(Ticket.Op.READ, expiry(), h.peer(), "recovery", List.of(id), null))));
      PieceReply r = wait(client.get(address, h.key()));
      if (r instanceof PieceReply.Found f) {
        if (got.stream().noneMatch(g -> g.index() == f.fragment().index())) {
          got.add(f.fragment());
          needed = f.fragment().dataFragments();
        }
      } else {
        LOG.warn("piece {} of catalog record {} on {}: {}", h.key().index(), id.shortHex(), h.peer(), r);
      }
    }
    if (got.size() < needed) {
      throw new CorruptDataException("only " + got.size() + " of the " + (needed == Integer.MAX_VALUE ? "m" : needed)
          + " pieces needed could be read");
    }
    byte[] sealed = CatalogRecord.decode(id, got.toArray(new Fragment[0]));
    byte[] plain = CatalogRecord.unpack(CatalogKey.open(catalogKey, sealed));
    RecordContent c = JSON.readValue(plain, RecordContent.class);
    if (c.format() != RecordContent.FORMAT) {
      throw new CorruptDataException("record format " + c.format() + " is not " + RecordContent.FORMAT + "; use a newer Cairn");
    }
    Fragment first = got.get(0);
    Redundancy r = Redundancy.of(first.codec(), first.dataFragments(), first.parityFragments());
    List<String> holders = new ArrayList<>(java.util.Collections.nCopies(r.totalFragments(), (String) null));
    List<String> tags = new ArrayList<>(java.util.Collections.nCopies(r.totalFragments(), (String) null));
    for (Held h : pieces) {
      int i = h.key().index();
      if (i < holders.size() && holders.get(i) == null) {
        holders.set(i, h.peer());
        tags.set(i, FragmentKey.tagHex(h.key().tag()));
      }
    }
    for (int i = 0; i < tags.size(); i++) {
      if (tags.get(i) == null) { // no peer holds this piece: repair rebuilds it with the tag re-coding gives
        tags.set(i, FragmentKey.tagHex(CatalogRecord.code(sealed, r)[i].tag()));
      }
    }
    long stored = (long) r.totalFragments() * first.serializedSize();
    return new CatalogRebuild.Found(id, c, new ChunkRecord(holders, stored, 1, r.spec(), null, tags, null));
  }

  private long expiry() {
    return clock.millis() + TICKET_LIFE.toMillis();
  }

  private <T> T wait(java.util.concurrent.CompletableFuture<T> f) throws IOException {
    try {
      return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable c = e.getCause() instanceof java.util.concurrent.CompletionException && e.getCause().getCause() != null
          ? e.getCause().getCause() : e.getCause();
      throw c instanceof IOException io ? io : new IOException(String.valueOf(c.getMessage()), c);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IOException("no answer within " + timeout.toSeconds() + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
