package org.cairn.tracker.repair;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Who may make the index forget a holder's piece: the holder or the admin at once, anyone else only with a second reporter. */
class BadPieceReportsTest extends RepairFixture {
  @BeforeEach
  void aStoredChunk() throws IOException {
    peers("p1", "p2", "p3", "p4");
    commit("heat", "c", "p1", "p2", "p3", "p4");
  }

  @Test
  void aSingleClientReportCannotDropAHolder() throws IOException {
    for (int i = 0; i < 30; i++) {
      assertThat(repair.reportBad("p2", Map.of(key("c", 1), "corrupt"), "client-a", false)).isZero();
    }
    assertThat(holders("heat", "c")).containsExactly("p1", "p2", "p3", "p4");
    assertThat(eventsText()).contains("suspected").doesNotContain("dropped");
  }

  @Test
  void aSecondIndependentReportDropsIt() throws IOException {
    assertThat(repair.reportBad("p2", Map.of(key("c", 1), "corrupt"), "client-a", false)).isZero();
    assertThat(repair.reportBad("p2", Map.of(key("c", 1), "corrupt"), "peer-p3", false)).isEqualTo(1);
    assertThat(holders("heat", "c")).containsExactly("p1", null, "p3", "p4");
    assertThat(eventsText()).contains("dropped");
  }

  @Test
  void theHolderItselfConfirmsASuspicion() throws IOException {
    repair.reportBad("p3", Map.of(key("c", 2), "corrupt"), "client-a", false);
    assertThat(repair.reportBad("p3", Map.of(key("c", 2), "scrub"), "p3", true)).isEqualTo(1);
    assertThat(holders("heat", "c")).containsExactly("p1", "p2", null, "p4");
  }

  @Test
  void aSuspicionExpires_soALateSecondReportIsOnlyASuspicionAgain() throws IOException {
    repair.reportBad("p2", Map.of(key("c", 1), "corrupt"), "client-a", false);
    clock.advance(RepairService.SUSPICION_TTL.plus(Duration.ofSeconds(1)));
    assertThat(repair.reportBad("p2", Map.of(key("c", 1), "corrupt"), "client-b", false)).isZero();
    assertThat(holders("heat", "c")).containsExactly("p1", "p2", "p3", "p4");
  }

  @Test
  void reportsAboutDifferentHoldersDoNotAddUp() throws IOException {
    repair.reportBad("p1", Map.of(key("c", 1), "corrupt"), "client-a", false);
    assertThat(repair.reportBad("p2", Map.of(key("c", 1), "corrupt"), "client-b", false)).isZero();
    assertThat(holders("heat", "c")).containsExactly("p1", "p2", "p3", "p4");
  }

  @Test
  void twoReportersOfOneAppCannotDropAHolderInAnotherAppsEntry() throws IOException {
    commit("wrf", "c", "p1", "p2", "p3", "p4"); // the same chunk id and pieces, indexed for app wrf too
    java.util.function.Predicate<String> heatOnly = "heat"::equals;
    assertThat(repair.reportBad("p2", Map.of(key("c", 1), "corrupt"), "client:tok-a1", false, heatOnly)).isZero();
    assertThat(repair.reportBad("p2", Map.of(key("c", 1), "corrupt"), "client:tok-a2", false, heatOnly)).isEqualTo(1);
    assertThat(holders("heat", "c")).containsExactly("p1", null, "p3", "p4");
    assertThat(holders("wrf", "c")).as("wrf's entry is not theirs to change").containsExactly("p1", "p2", "p3", "p4");
  }

  @Test
  void reportersWhoShareNoAppLeaveTheSecondReportWaitingForAThird() throws IOException {
    assertThat(repair.reportBad("p2", Map.of(key("c", 1), "corrupt"), "client:tok-wrf", false, "wrf"::equals)).isZero();
    assertThat(repair.reportBad("p2", Map.of(key("c", 1), "corrupt"), "client:tok-heat", false, "heat"::equals)).isZero();
    assertThat(holders("heat", "c")).containsExactly("p1", "p2", "p3", "p4");
    assertThat(repair.reportBad("p2", Map.of(key("c", 1), "corrupt"), "client:tok-heat2", false, "heat"::equals))
        .as("heat's second reporter confirms the heat reporter's suspicion").isEqualTo(1);
    assertThat(holders("heat", "c")).containsExactly("p1", null, "p3", "p4");
  }

  @Test
  void theCatalogSaysWhichAppsReferenceAChunk() throws IOException {
    assertThat(catalog.referencedByApp(id("c"), "heat"::equals)).isTrue();
    assertThat(catalog.referencedByApp(id("c"), "other"::equals)).isFalse();
    assertThat(catalog.referencedByApp(id("elsewhere"), a -> true)).isFalse();
    catalog.pending().add("s1", "other", "tok-b", java.util.List.of(id("in flight")));
    assertThat(catalog.referencedByApp(id("in flight"), "other"::equals)).as("a pending store's chunk counts for its app").isTrue();
    assertThat(catalog.referencedByApp(id("in flight"), "heat"::equals)).isFalse();
  }

  private String eventsText() {
    return String.valueOf(events.since(0, 100));
  }
}
