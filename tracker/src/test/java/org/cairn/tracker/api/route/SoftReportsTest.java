package org.cairn.tracker.api.route;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import org.junit.jupiter.api.Test;

/** Peers' soft-write reports reach the catalog off the heartbeat's thread, the newest of each peer's. */
class SoftReportsTest {
  private final Queue<Runnable> tasks = new ArrayDeque<>();
  private final List<String> taken = new ArrayList<>();

  private void runTasks() {
    for (Runnable r = tasks.poll(); r != null; r = tasks.poll()) {
      r.run();
    }
  }

  @Test
  void nothingIsTakenOnTheReportersThread_andOfAPeersWaitingReportsOnlyTheNewest() {
    SoftReports reports = new SoftReports((peer, boot, durable) -> taken.add(peer + " " + boot + " " + durable), tasks::add);
    reports.report("p1", "b1", 3);
    reports.report("p1", "b1", 5);
    reports.report("p2", "b7", 1);
    assertThat(taken).as("on the reporter's thread").isEmpty();
    runTasks();
    assertThat(taken).containsExactly("p1 b1 5", "p2 b7 1");
    reports.report("p1", "b2", 0);
    runTasks();
    assertThat(taken).last().isEqualTo("p1 b2 0");
  }

  @Test
  void aReportTheCatalogRefusesIsLogged_andThePeersNextOneIsTaken() {
    boolean[] fail = {true};
    SoftReports reports = new SoftReports((peer, boot, durable) -> {
      if (fail[0]) {
        throw new IOException("the store is closed");
      }
      taken.add(peer + " " + durable);
    }, tasks::add);
    reports.report("p1", "b1", 3);
    runTasks();
    fail[0] = false;
    reports.report("p1", "b1", 4);
    runTasks();
    assertThat(taken).containsExactly("p1 4");
  }
}
