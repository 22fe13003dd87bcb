package org.cairn.tracker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cairn.core.api.Caller;
import org.cairn.core.api.Endpoint;
import org.cairn.core.api.Endpoints;
import org.cairn.tracker.api.call.Response;
import org.cairn.tracker.auth.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every endpoint of the table called by every kind of caller, each with a valid request: the answer
 * is what the endpoint's declared rule says (allowed: neither 401 nor 403; refused: 401 or 403).
 * The router serves exactly the table, and every endpoint declares who may call it and has a sample
 * here, so an endpoint added without a rule fails this test.
 */
class AuthorizationMatrixTest {
  @TempDir
  Path dir;

  private ApiFixture f;

  /** The callers of the matrix. */
  enum Who { NONE, PUBLIC_PAGE, ADMIN, CLIENT_A, READ_ONLY_A, CLIENT_B, DONOR, PEER_X_ON_X, PEER_X_ON_Y }

  @BeforeEach
  void open() throws IOException {
    f = new ApiFixture(dir);
  }

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void theRouterServesExactlyTheTable_andEveryEndpointDeclaresWhoMayCallIt() {
    assertThat(f.api.served()).containsExactlyInAnyOrderElementsOf(Endpoints.ALL);
    for (Endpoint<?, ?> e : Endpoints.ALL) {
      assertThat(e.callers()).as("%s declares who may call it", e).isNotEmpty();
      assertThat(Samples.of(e, new Samples.Ctx(f, null, 0))).as("%s has a sample request in Samples", e).isNotNull();
    }
    assertThat(new HashSet<>(Endpoints.ALL)).as("no endpoint twice").hasSize(Endpoints.ALL.size());
  }

  @Test
  void aPathOutsideTheTableIsNotServed_evenToTheAdmin() {
    for (String path : List.of("/api/v1/nothing", "/api/v1/peers/px/unknown", "/api/v1/peers/px/bad/more", "/api/v2/peers", "/elsewhere",
        "/api/v1/chunks/other")) {
      assertThat(f.handle("GET", path, Map.of(), null, f.admin).status()).as(path).isEqualTo(404);
    }
    assertThat(f.handle("PUT", "/api/v1/peers", Map.of(), "{}", f.admin).status()).isEqualTo(405);
    assertThat(f.handle("GET", "/api/v1/nothing", Map.of(), null, null).status()).as("no credential: 401").isEqualTo(401);
  }

  @Test
  void everyEndpointByEveryCaller_answersAsItsRuleDeclares() throws IOException {
    String clientA = f.issue(Role.CLIENT, List.of(ApiFixture.A), false, null);
    String readerA = f.issue(Role.CLIENT, List.of(ApiFixture.A), true, null);
    String clientB = f.issue(Role.CLIENT, List.of(ApiFixture.B), false, null);
    String donor = f.issue(Role.DONOR, null, false, 1000);
    List<String> wrong = new ArrayList<>();
    int n = 0;
    for (Endpoint<?, ?> e : Endpoints.ALL) {
      for (Who who : Who.values()) {
        n++;
        String token = switch (who) {
          case NONE, PUBLIC_PAGE -> null;
          case ADMIN -> f.admin;
          case CLIENT_A -> clientA;
          case READ_ONLY_A -> readerA;
          case CLIENT_B -> clientB;
          case DONOR -> donor;
          case PEER_X_ON_X, PEER_X_ON_Y -> f.peerX;
        };
        String peer = who == Who.PEER_X_ON_X ? ApiFixture.X : who == Who.PEER_X_ON_Y ? ApiFixture.Y : null;
        Samples.Sample s = Samples.of(e, new Samples.Ctx(f, peer, n));
        f.api.setStatusPagePublic(who == Who.PUBLIC_PAGE, false);
        Response r = f.handle(e.method(), s.path(), s.query(), s.body(), token);
        boolean refused = r.status() == 401 || r.status() == 403;
        boolean allowed = allowed(e, who);
        if (allowed == refused || who == Who.NONE && !allowed && r.status() != 401 || r.status() == 500) {
          String text = new String(r.body(), StandardCharsets.UTF_8);
          wrong.add(e + " by " + who + ": " + r.status() + " " + text.substring(0, Math.min(200, text.length()))
              + (allowed ? " (the table allows it)" : " (the table refuses it)"));
        }
      }
    }
    assertThat(wrong).as("calls not answered as the table declares").isEmpty();
  }

  /** What the table declares for {@code who} calling {@code e} with its sample (which names app A, its chunk, and the peer acted on). */
  private static boolean allowed(Endpoint<?, ?> e, Who who) {
    Set<Caller> c = e.callers();
    boolean client = c.contains(Caller.CLIENT) || c.contains(Caller.ANY);
    boolean namesScope = e.app() != null || e.chunks() != null;
    if (c.contains(Caller.ANONYMOUS)) {
      return true;
    }
    return switch (who) {
      case NONE -> false;
      case PUBLIC_PAGE -> c.contains(Caller.PUBLIC_PAGE) && !namesScope;
      case ADMIN -> true;
      case CLIENT_A -> client;
      case READ_ONLY_A -> client && !e.isWrite();
      case CLIENT_B -> client && (c.contains(Caller.ANY) || !namesScope);
      case DONOR -> c.contains(Caller.DONOR) || c.contains(Caller.ANY);
      case PEER_X_ON_X -> c.contains(Caller.PEER_SELF) || c.contains(Caller.ANY);
      case PEER_X_ON_Y -> c.contains(Caller.ANY);
    };
  }
}
