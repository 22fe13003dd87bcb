package org.cairn.tracker.recovery;

import io.netty.channel.nio.NioEventLoopGroup;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.cairn.core.net.PeerClient;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.security.GridToken;
import org.cairn.core.security.TicketSigner;
import org.cairn.tracker.auth.Credentials;
import org.cairn.tracker.catalog.CatalogRebuild;
import org.cairn.tracker.store.TrackerStore;

/**
 * Rebuilds a tracker's data directory from the grid: the last line of defence when every
 * tracker disk is gone. The operator's kit (a backup or a copy of an old data directory: any age, it
 * is read only for the grid's keys and tokens, never for its database) gives the catalog key, the
 * ticket key, the data-plane key and the issued tokens; the peers give the catalog records and who
 * holds what. The result is a data directory a tracker starts on; the peers rejoin it on their own
 * (it does not know them, so they register again with their credentials) and repair mends pieces that
 * were lost meanwhile.
 */
public final class Recovery {
  /** What recovery did. */
  public record Result(Map<String, String> peers, int recordsFound, CatalogRebuild.Summary catalog, List<String> problems) {}

  private Recovery() {}

  /**
   * @param kit a tracker backup or data directory holding {@code catalog.key}, {@code ticket.key},
   *     {@code dataplane.key}, and the tokens (and, on a grid with TLS, its CA: {@code tls/}, {@code ca.sha256})
   * @param data the new data directory: absent or empty; left empty again if recovery fails
   */
  public static Result run(Path kit, Path data, List<String> peerAddresses, Duration timeout) throws IOException {
    for (String need : List.of(Credentials.CATALOG_KEY, "ticket.key", "dataplane.key")) {
      if (!Files.isRegularFile(kit.resolve(need))) {
        throw new IllegalArgumentException("the kit " + kit + " has no " + need + " (give a tracker backup or a copy of a data directory"
            + " made after catalog records existed)");
      }
    }
    if (Files.exists(data)) {
      try (Stream<Path> s = Files.list(data)) {
        if (s.findAny().isPresent()) {
          throw new IllegalArgumentException(data + " is not empty: recovery writes into a new or empty data directory");
        }
      }
    }
    Files.createDirectories(data);
    boolean done = false;
    try {
      Result r = rebuild(data, kit, peerAddresses, timeout);
      done = true;
      return r;
    } finally {
      if (!done) { // nothing half-rebuilt is left to start a tracker on; the directory is empty again
        try (Stream<Path> s = Files.list(data)) {
          for (Path p : (Iterable<Path>) s::iterator) {
            org.cairn.core.util.FileTrees.delete(p);
          }
        }
      }
    }
  }

  private static Result rebuild(Path data, Path kit, List<String> peerAddresses, Duration timeout) throws IOException {
    copyKit(kit, data);
    String catalogKey = Files.readString(data.resolve(Credentials.CATALOG_KEY), StandardCharsets.UTF_8).strip();
    TicketSigner tickets = TicketSigner.parse(Files.readString(data.resolve("ticket.key"), StandardCharsets.UTF_8));
    GridToken dataKey = GridToken.of(Files.readString(data.resolve("dataplane.key"), StandardCharsets.UTF_8).strip());
    NioEventLoopGroup group = new NioEventLoopGroup(2);
    try (PeerClient client = new PeerClient(group, dataKey, timeout); TrackerStore store = TrackerStore.open(data.resolve("db"))) {
      Path pin = data.resolve("ca.sha256");
      if (Files.isRegularFile(pin)) { // the grid ran with --tls: its peers speak TLS with certificates from this CA
        client.useTls(Files.readString(pin, StandardCharsets.UTF_8).strip());
      }
      PeerSweep.Result sweep = new PeerSweep(client, tickets, catalogKey, Clock.systemUTC(), timeout).sweep(peerAddresses);
      Map<FragmentKey, String> holderOf = new HashMap<>();
      sweep.held().values().forEach(list -> list.forEach(h -> holderOf.putIfAbsent(h.key(), h.peer())));
      CatalogRebuild.Summary summary = CatalogRebuild.write(store, sweep.records(), holderOf);
      return new Result(sweep.peers(), sweep.records().size(), summary, sweep.problems());
    } finally {
      group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  /** The kit's keys, tokens and CA into {@code data}, keeping permissions; never its database or Raft log. */
  private static void copyKit(Path kit, Path data) throws IOException {
    try (Stream<Path> entries = Files.walk(kit)) {
      for (Path p : (Iterable<Path>) entries::iterator) {
        Path rel = kit.relativize(p);
        String top = rel.getNameCount() == 0 ? "" : rel.getName(0).toString();
        if (rel.toString().isEmpty() || top.equals("db") || top.equals("raft") || top.startsWith(".")) {
          continue;
        }
        Path to = data.resolve(rel.toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
        } else {
          Files.copy(p, to, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }
}
