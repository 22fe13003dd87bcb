package org.cairn.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.cairn.core.security.GridToken;
import org.cairn.it.MiniGrid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hostile donor, as its own process ({@link HostileDonor}), on the default (TLS) grid with five
 * honest donors.
 *
 * <p><b>Attack:</b> with a donor enrollment token it registers at a victim peer's address; it
 * joins at an address of its own (where it serves nothing) claiming 4 EiB free in every heartbeat;
 * it reports repair outcomes that place a stored version's pieces on itself; and it floods the
 * victim's data plane with pre-AUTH frames whose length fields say 32 MiB, on 40 connections it
 * holds open, while an honest client stores and fetches.
 *
 * <p><b>Defence:</b> a registration at a live peer's address is refused with 409 and a one-line
 * reason; the tracker clamps or ignores the claimed space (its peer list shows at most its ceiling, 1 PiB, and 10 GB/s);
 * outcomes of jobs the donor was never given change no holder; the peer refuses pre-AUTH frames
 * larger than a small limit and caps connections, so the flood costs it little memory.
 *
 * <p><b>Nothing lost:</b> the victim keeps running and stays RUNNING; the honest client's store
 * during the flood succeeds with each chunk's pieces on distinct hosts, both versions fetch
 * byte-identical, and no chunk of them lists the hostile donor as a holder.
 */
class HostileDonorIT {
  private static final Pattern STEP = Pattern.compile("^([a-z-]+): (.*)$", Pattern.MULTILINE);

  @TempDir
  Path root;

  @Test
  void aHostileDonorCannotImpersonateOverclaimOrFloodItsWayIn() throws Exception {
    try (MiniGrid grid = new MiniGrid(root, Duration.ofMillis(500))) {
      List<MiniGrid.Node> peers = Hostile.startGrid(grid, root, 5, Hostile.tls(grid));
      String admin = grid.token();
      Api api = new Api(grid.trackerUrl(), GridToken.readFile(grid.tokenFile()).caPin());
      Path client = Hostile.tokenFile(root, "client", Hostile.token(grid, "--role", "client", "--apps", "heat"));
      Path v1 = Hostile.randomFile(root.resolve("v1.img"), 3 << 20, 11);
      MiniGrid.Cli first = grid.cliAs(client, "store", v1.toString(), "--app", "heat", "--node", "n1", "--step", "1");
      assertThat(first.exit()).as(first.stdout() + first.stderr()).isZero();
      String holdersBefore = holders(api, admin, 1);

      // what the attacker claims: every piece of version 1, at its index
      StringBuilder pieces = new StringBuilder();
      api.get("/api/v1/manifest?app=heat&node=n1&step=1", admin).json().get("chunks").fields().forEachRemaining(e -> {
        for (int i = 0; i < e.getValue().get("holders").size(); i++) {
          pieces.append(e.getKey()).append(' ').append(i).append('\n');
        }
      });
      Path piecesFile = Files.writeString(root.resolve("pieces.txt"), pieces);
      MiniGrid.Node victim = peers.get(0);
      boolean tls = victim.stderr().contains("data plane: TLS");
      Path attackToken = Hostile.tokenFile(root, "attacker-donor", Hostile.token(grid, "--role", "donor", "--uses", "3"));
      Path out = root.resolve("hostile-donor.out");
      Process hostile = new ProcessBuilder(Hostile.javaMain(HostileDonor.class, grid.trackerUrl(), attackToken.toString(),
          victim.address(), Boolean.toString(tls), "40", "8", piecesFile.toString()))
          .redirectOutput(out.toFile()).redirectError(root.resolve("hostile-donor.err").toFile()).start();
      try {
        MiniGrid.await("the hostile donor's flood", Duration.ofSeconds(180), () -> Files.readString(out).contains("flood-done:"),
            () -> Files.readString(out) + Files.readString(root.resolve("hostile-donor.err")));
        String said = Files.readString(out);
        System.out.println("HostileDonorIT: the hostile donor said:\n" + said);
        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(step(said, "register-at-victim")).as("registering at the victim's address").startsWith("409 ");
        softly.assertThat(step(said, "register-at-victim").lines().count()).as("a one-line reason").isEqualTo(1);
        String[] registered = step(said, "registered").split(" ");
        String hostileId = registered.length > 1 ? registered[1] : "(not registered)";
        softly.assertThat(step(said, "registered")).as("the hostile donor joins at its own address").startsWith("200 ");

        honestWorkDuringTheFlood(softly, grid, client, v1, hostileId);
        JsonNode view = peer(grid, hostileId);
        softly.assertThat(view == null ? 0 : view.path("freeBytes").asLong()).as("the tracker's view of the 4 EiB claim: %s", view)
            .isLessThanOrEqualTo(org.cairn.tracker.membership.Membership.MAX_BYTES);
        softly.assertThat(view == null ? 0 : view.path("diskWriteBytesPerSecond").asDouble()).as("its claimed disk rate: %s", view)
            .isLessThanOrEqualTo(org.cairn.tracker.membership.Membership.MAX_DISK_RATE);
        softly.assertThat(holders(api, admin, 1)).as("version 1's holders after forged repair outcomes (%s)", step(said, "repaired"))
            .isEqualTo(holdersBefore).doesNotContain(hostileId);
        softly.assertThat(holders(api, admin, 2)).as("no piece of version 2 is said to be on the hostile donor").doesNotContain(hostileId);
        softly.assertThat(step(said, "flood-done")).as("the victim cut every flooding connection before it took 8 MiB")
            .contains("delivered=0 ");
        softly.assertThat(victim.stderr().lines().filter(l -> l.contains("OutOfMemoryError")).count())
            .as("lines of the victim's log saying it ran out of memory").isZero();
        softly.assertThat(victim.process().isAlive()).as("the victim peer still runs").isTrue();
        softly.assertThat(grid.stateOf(victim.peerId())).as("the victim peer's state").isEqualTo("RUNNING");
        System.out.println("HostileDonorIT: victim's log:\n" + tail(victim.stderr()));
        softly.assertAll();
      } finally {
        hostile.destroyForcibly();
        hostile.waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  /** An honest store and fetches while the flood's connections are held open. */
  private void honestWorkDuringTheFlood(SoftAssertions softly, MiniGrid grid, Path client, Path v1, String hostileId) throws Exception {
    Path v2 = Hostile.randomFile(root.resolve("v2.img"), 4 << 20, 12);
    MiniGrid.Cli store = grid.cliAs(client, "store", v2.toString(), "--app", "heat", "--node", "n1", "--step", "2");
    softly.assertThat(store.exit()).as("an honest store during the flood: %s", store.stderr()).isZero();
    List<Path> inputs = List.of(v1, v2);
    for (int step = 1; step <= 2; step++) {
      Path fetched = root.resolve("fetched-" + step + ".img");
      MiniGrid.Cli fetch = grid.cliAs(client, "fetch", "--app", "heat", "--node", "n1", "--step", Integer.toString(step), "-o",
          fetched.toString());
      softly.assertThat(fetch.exit()).as("an honest fetch of version %d during the flood: %s", step, fetch.stderr()).isZero();
      softly.assertThat(Files.exists(fetched) && Files.mismatch(inputs.get(step - 1), fetched) == -1)
          .as("version %d is byte-identical", step).isTrue();
    }
    if (store.exit() == 0) {
      JsonNode chunks = grid.get("/api/v1/manifest?app=heat&node=n1&step=2").json().get("chunks");
      chunks.forEach(c -> {
        List<String> ids = new ArrayList<>();
        c.get("holders").forEach(h -> ids.add(h.path("id").asText()));
        softly.assertThat(ids).as("chunk %s's pieces are on distinct hosts", c.get("id").asText()).doesNotHaveDuplicates();
      });
    }
  }

  private static String holders(Api api, String admin, int step) throws Exception {
    Api.Reply r = api.get("/api/v1/manifest?app=heat&node=n1&step=" + step, admin);
    if (r.status() != 200) {
      return r.toString();
    }
    List<String> all = new ArrayList<>();
    r.json().get("chunks").fields().forEachRemaining(e -> all.add(e.getKey() + "=" + e.getValue().get("holders")));
    return String.join("\n", all);
  }

  private static JsonNode peer(MiniGrid grid, String id) throws Exception {
    for (JsonNode p : grid.peers()) {
      if (p.get("id").asText().equals(id)) {
        return p;
      }
    }
    return null;
  }

  /** What the hostile donor printed for a step (empty if it did not reach it). */
  private static String step(String said, String name) {
    Matcher m = STEP.matcher(said);
    while (m.find()) {
      if (m.group(1).equals(name)) {
        return m.group(2);
      }
    }
    return "";
  }

  private static String tail(String log) {
    return log.length() > 4000 ? log.substring(log.length() - 4000) : log;
  }
}
