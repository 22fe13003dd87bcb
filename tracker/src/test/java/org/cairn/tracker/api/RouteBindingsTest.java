package org.cairn.tracker.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.cairn.core.api.catalog.PendingRequest;
import org.cairn.core.hash.ChunkId;
import org.cairn.tracker.auth.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the routes pass to the services about the caller, and the bounds they check first: bad reports, pending chunks, events. */
class RouteBindingsTest {
  @TempDir
  Path dir;

  private ApiFixture f;

  @BeforeEach
  void open() throws IOException {
    f = new ApiFixture(dir);
  }

  @AfterEach
  void close() {
    f.close();
  }

  private static String badReport(String chunk) {
    return "{\"reporter\":\"fetch\",\"fragments\":[{\"key\":\"" + ApiFixture.fragment(chunk) + "\",\"reason\":\"checksum\"}]}";
  }

  @Test
  void aClientOfAppACannotReportAppBsPiecesBad() throws IOException {
    String clientA = f.issue(Role.CLIENT, List.of(ApiFixture.A), true, null);
    JsonNode refused = f.call("B's chunk", "POST", "/api/v1/peers/px/bad", Map.of(), badReport(f.chunkB), clientA, 403);
    assertThat(refused.get("error").asText()).contains("may not report on chunk");
    // a report mixing its own chunk with another app's is refused whole
    f.call("mixed", "POST", "/api/v1/peers/px/bad", Map.of(), "{\"fragments\":[{\"key\":\"" + ApiFixture.fragment(f.chunkA)
        + "\"},{\"key\":\"" + ApiFixture.fragment(f.chunkB) + "\"}]}", clientA, 403);
    // and a chunk no version holds at all
    f.call("unknown chunk", "POST", "/api/v1/peers/px/bad", Map.of(), badReport(ChunkId.of(new byte[] {99}).hex()), clientA, 403);
  }

  @Test
  void aClientOfAppAMayReportItsOwnChunksPiecesBad() throws IOException {
    String clientA = f.issue(Role.CLIENT, List.of(ApiFixture.A), true, null);
    f.call("A's chunk", "POST", "/api/v1/peers/px/bad", Map.of(), badReport(f.chunkA), clientA, 200);
  }

  @Test
  void aPeerReportsOnlyItsOwnPieces_andABadKeyIsA400() throws IOException {
    assertThat(f.call("other peer", "POST", "/api/v1/peers/py/bad", Map.of(), badReport(f.chunkA), f.peerX, 403).get("error").asText())
        .contains("may act only as peer px");
    f.call("own", "POST", "/api/v1/peers/px/bad", Map.of(), badReport(f.chunkA), f.peerX, 200);
    String clientA = f.issue(Role.CLIENT, List.of(ApiFixture.A), false, null);
    f.call("bad key", "POST", "/api/v1/peers/px/bad", Map.of(), "{\"fragments\":[{\"key\":\"zz\"}]}", clientA, 400);
  }

  @Test
  void pendingRefusesMoreIdsPerCallThanTheClientSends() throws IOException {
    String clientA = f.issue(Role.CLIENT, List.of(ApiFixture.A), false, null);
    StringBuilder ids = new StringBuilder();
    for (int i = 0; i <= PendingRequest.MAX_CHUNKS; i++) {
      ids.append(i > 0 ? "," : "").append('"').append(ChunkId.of(new byte[] {(byte) i, (byte) (i >> 8)}).hex()).append('"');
    }
    String body = "{\"app\":\"" + ApiFixture.A + "\",\"chunks\":[" + ids + "]}";
    assertThat(f.call("too many", "POST", "/api/v1/stores/s1/pending", Map.of(), body, clientA, 400).get("error").asText())
        .contains("at most " + PendingRequest.MAX_CHUNKS);
    String one = "{\"app\":\"" + ApiFixture.A + "\",\"chunks\":[\"" + f.chunkA + "\"]}";
    assertThat(f.call("one", "POST", "/api/v1/stores/s1/pending", Map.of(), one, clientA, 200).get("pending").asInt()).isEqualTo(1);
  }

  @Test
  void pendingRefusesAnAppOutsideTheCallersScope_andOneNamingNoApp() throws IOException {
    String clientA = f.issue(Role.CLIENT, List.of(ApiFixture.A), false, null);
    String readerA = f.issue(Role.CLIENT, List.of(ApiFixture.A), true, null);
    String forB = "{\"app\":\"" + ApiFixture.B + "\",\"chunks\":[]}";
    assertThat(f.call("other app", "POST", "/api/v1/stores/s2/pending", Map.of(), forB, clientA, 403).get("error").asText())
        .contains("may not touch app " + ApiFixture.B);
    f.call("read-only", "POST", "/api/v1/stores/s2/pending", Map.of(), "{\"app\":\"" + ApiFixture.A + "\",\"chunks\":[]}", readerA, 403);
    assertThat(f.call("no app", "POST", "/api/v1/stores/s2/pending", Map.of(), "{\"chunks\":[]}", clientA, 400).get("error").asText())
        .contains("'app'");
  }

  @Test
  void eventsOfADottedApp_doNotReachAClientOfItsPrefix() throws IOException {
    f.call("commit", "POST", "/api/v1/versions", Map.of(), f.commit("lab.heat", f.chunkA), f.admin, 200);
    String ofLab = f.issue(Role.CLIENT, List.of("lab"), false, null);
    String ofLabHeat = f.issue(Role.CLIENT, List.of("lab.heat"), false, null);
    assertThat(f.call("prefix", "GET", "/api/v1/events", Map.of(), null, ofLab, 200).toString()).doesNotContain("lab.heat");
    assertThat(f.call("own", "GET", "/api/v1/events", Map.of(), null, ofLabHeat, 200).toString()).contains("lab.heat.n1")
        .doesNotContain("\"app\":\"" + ApiFixture.A + "\"");
    // events about the grid (a peer) are for every client
    f.events.add("down", ApiFixture.X, "no heartbeat");
    assertThat(f.call("peers", "GET", "/api/v1/events", Map.of(), null, ofLab, 200).toString()).contains("no heartbeat");
  }
}
