package org.cairn.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A replicated tracker group of real processes for a {@link MiniGrid}: members {@code t1..tN}, each
 * {@code cairn-tracker.jar --peers ... --id tI} with its own data directory and fixed ports (a member
 * restarts on the same ones). The grid's peers and commands are given every member's URL.
 */
final class TrackerGroup {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final MiniGrid grid;
  private final int[] httpPorts;
  private final String peers;
  private final MiniGrid.Node[] members;
  private final String[] extraArgs;
  private final HttpClient http;

  TrackerGroup(MiniGrid grid, int size, String... extraArgs) throws IOException {
    this.grid = grid;
    httpPorts = new int[size];
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      httpPorts[i] = Ports.free();
      ids.add(id(i) + "=127.0.0.1:" + Ports.free());
    }
    peers = String.join(",", ids);
    members = new MiniGrid.Node[size];
    this.extraArgs = List.of(extraArgs).contains("--tls-ca") ? extraArgs : withSharedCa(grid, extraArgs);
    HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2));
    // the members' CA, as the grid's token pins it
    b.sslContext(org.cairn.core.security.PinnedTrust.context(org.cairn.core.security.GridToken.readFile(grid.tokenFile()).caPin()
        .orElseThrow(() -> new IllegalStateException("a tracker group needs a token file that pins its CA"))));
    http = b.build();
  }

  /**
   * A group's members share one CA (they refuse to start without it): made once with {@code ca create}, as an operator
   * does, and pinned by the grid's token.
   */
  private static String[] withSharedCa(MiniGrid grid, String... extraArgs) throws IOException {
    Path ca = grid.root().resolve("group-ca");
    MiniGrid.Cli made;
    try {
      made = grid.trackerCommand("ca", "create", "--out", ca.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted making the group's CA", e);
    }
    if (made.exit() != 0) {
      throw new IOException("ca create failed: " + made.stderr());
    }
    grid.pinCa(made.stdout().strip());
    List<String> args = new ArrayList<>(List.of(extraArgs));
    args.addAll(List.of("--tls-ca", ca.toString()));
    return args.toArray(String[]::new);
  }

  /** The address member {@code i} replicates the log on (its Raft port). */
  String raftAddress(int i) {
    return peers.split(",")[i].substring(peers.split(",")[i].indexOf('=') + 1);
  }

  static String id(int i) {
    return "t" + (i + 1);
  }

  /** Starts every member and waits until one leads and serves the grid. */
  void start() throws Exception {
    for (int i = 0; i < members.length; i++) {
      startMember(i);
    }
    grid.useTrackers(urls());
    awaitLeader(Duration.ofSeconds(60));
  }

  /** (Re)starts member {@code i} on its ports, with its data directory as it is. */
  void startMember(int i) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of("--data", data(i).toString(), "--listen", "127.0.0.1:" + httpPorts[i],
        "--token-file", grid.tokenFile().toString(), "--heartbeat-interval", "1s", "--history-slot", "1s", "--gc-hold", "5s",
        "--peers", peers, "--id", id(i)));
    args.addAll(List.of(extraArgs));
    members[i] = grid.startProcess(id(i), MiniGrid.jar("tracker", "cairn-tracker.jar"), args);
    members[i].awaitLine(MiniGrid.TRACKER_URL, Duration.ofSeconds(60));
  }

  Path data(int i) {
    return grid.root().resolve("tracker-" + id(i));
  }

  MiniGrid.Node member(int i) {
    return members[i];
  }

  String url(int i) {
    return "https://127.0.0.1:" + httpPorts[i];
  }

  String urls() {
    List<String> all = new ArrayList<>();
    for (int i = 0; i < members.length; i++) {
      all.add(url(i));
    }
    return all.stream().collect(Collectors.joining(","));
  }

  int size() {
    return members.length;
  }

  /** {@code GET /api/v1/cluster} from member {@code i}, or null if it does not answer. */
  JsonNode cluster(int i) {
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url(i) + "/api/v1/cluster")).timeout(Duration.ofSeconds(2)).GET()
          .build(), HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** The status of an authorised {@code GET path} at member {@code i} (-1 if it does not answer). */
  int status(int i, String path) {
    try {
      return http.send(HttpRequest.newBuilder(URI.create(url(i) + path)).timeout(Duration.ofSeconds(5))
          .header("Authorization", "Bearer " + grid.token()).GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** The member that leads and serves the grid (its API answers 200), waiting up to {@code limit}. */
  int awaitLeader(Duration limit) throws Exception {
    int[] found = {-1};
    MiniGrid.await("a member of the tracker group to lead and serve", limit, () -> {
      for (int i = 0; i < members.length; i++) {
        JsonNode c = cluster(i);
        if (c != null && id(i).equals(c.path("leader").asText()) && status(i, "/api/v1/peers") == 200) {
          found[0] = i;
          return true;
        }
      }
      return false;
    });
    return found[0];
  }

  /** How many peers the leader has RUNNING (-1 if no member serves). */
  int running() throws Exception {
    int leader = awaitLeader(Duration.ofSeconds(30));
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url(leader) + "/api/v1/peers")).timeout(Duration.ofSeconds(5))
        .header("Authorization", "Bearer " + grid.token()).GET().build(), HttpResponse.BodyHandlers.ofString());
    int n = 0;
    for (JsonNode p : JSON.readTree(r.body())) {
      n += "RUNNING".equals(p.path("state").asText()) ? 1 : 0;
    }
    return n;
  }

  /** Whether member {@code i} has purged the start of its log (after a snapshot): no segment from entry 0 is left. */
  boolean purged(int i) throws IOException {
    try (var files = java.nio.file.Files.walk(data(i).resolve("raft"))) {
      List<String> names = files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("log_")).toList();
      return !names.isEmpty() && names.stream().noneMatch(n -> n.startsWith("log_0-") || n.equals("log_inprogress_0"));
    } catch (java.io.UncheckedIOException e) {
      if (e.getCause() instanceof java.nio.file.NoSuchFileException) {
        return false; // the member removed a file (an old snapshot's) while the walk listed it: look again
      }
      throw e;
    }
  }

  /** The log index member {@code i} has applied (-1 if it does not answer). */
  long applied(int i) {
    JsonNode c = cluster(i);
    return c == null ? -1 : c.path("applied").asLong(-1);
  }
}
