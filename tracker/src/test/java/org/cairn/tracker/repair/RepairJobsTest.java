package org.cairn.tracker.repair;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.cairn.core.api.repair.RepairJob;
import org.junit.jupiter.api.Test;

class RepairJobsTest {
  private static RepairJobs.InFlight job(String executor, long deadline, String... targets) {
    List<RepairJob.Piece> t = java.util.Arrays.stream(targets).map(p -> new RepairJob.Piece(0, p, "127.0.0.1:1")).toList();
    return new RepairJobs.InFlight(new RepairJob("a/c", "a", "c", "code:2+1", 1, List.of(), t, List.of()), executor, 0, deadline,
        Map.of());
  }

  @Test
  void expire_forgetsLateJobsAndAvoidsTheirExecutor_untilTheBackOffEnds() {
    RepairJobs jobs = new RepairJobs();
    jobs.start("a/late", job("p1", 100, "t1"));
    jobs.start("a/fine", job("p2", 300, "t1", "t2"));
    assertThat(jobs.executing("p1")).isEqualTo(1);
    assertThat(jobs.targetLoad()).as("bytes of rebuilt pieces in flight to each target").containsEntry("t1", 2L).containsEntry("t2", 1L);

    assertThat(jobs.expire(100, 200, f -> false)).extracting(Map.Entry::getKey).containsExactly("a/late");
    assertThat(jobs.running("a/late")).isFalse();
    assertThat(jobs.running("a/fine")).isTrue();
    assertThat(jobs.avoided("a/late", "p1", 150)).isTrue();
    assertThat(jobs.avoided("a/late", 150)).containsExactly("p1");

    assertThat(jobs.expire(200, 400, f -> false)).isEmpty();
    assertThat(jobs.avoided("a/late", "p1", 200)).as("the back-off ended").isFalse();
    assertThat(jobs.avoided("a/late", 200)).isEmpty();
  }

  @Test
  void expire_forgetsTheJobsOfAnExecutorThatWillNotReport_beforeTheirDeadline() {
    RepairJobs jobs = new RepairJobs();
    jobs.start("a/x", job("gone", 1_000, "t1"));
    jobs.start("a/y", job("p2", 1_000, "t1"));
    assertThat(jobs.expire(10, 20, f -> f.executor().equals("gone"))).extracting(Map.Entry::getKey).containsExactly("a/x");
    assertThat(jobs.running("a/x")).isFalse();
    assertThat(jobs.running("a/y")).isTrue();
    assertThat(jobs.avoided("a/x", "gone", 15)).isTrue();
  }
}
