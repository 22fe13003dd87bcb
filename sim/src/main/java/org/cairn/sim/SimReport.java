package org.cairn.sim;

import org.cairn.sim.fleet.Counters;
import org.cairn.sim.measure.DownWatch;
import org.cairn.sim.measure.Latencies;

/**
 * What a run measured (printed as text, or as this record's JSON with {@code --json}).
 *
 * @param leader the URL of the tracker that led (the one the donors called)
 * @param heartbeatIntervalMs the interval the tracker named
 * @param enrollSeconds from the first registration sent to the last answered (the donors' keys made before)
 * @param heartbeats latency from when a heartbeat was due to its answer, over the steady minutes (the simulator's own
 *     delays included: on a loaded machine, compare {@code heartbeatsOnWire})
 * @param heartbeatsOnWire latency from a heartbeat's write to its answer
 * @param schedulerLag how late the simulator's scheduler started a heartbeat after its schedule (not in either latency)
 * @param laneWait due-to-answer less on-the-wire: the wait for a shared connection and the simulator's event loops, a
 *     delay a real donor (its own connection, its own process) does not have
 * @param leaderCpuPercent the leader's CPU over the steady minutes, percent of one core (null: no --tracker-pid)
 * @param leaderCpuMsPerHeartbeat the leader's CPU over the steady minutes divided by the heartbeats answered in them, in
 *     milliseconds: what a heartbeat costs the leader, its periodic work (failure detection, history, Raft) included
 *     (null: no --tracker-pid, or no heartbeat answered)
 * @param loadAverage the machine's one-minute load average at the end of the steady minutes (others' work included)
 * @param placementCandidates peers not DOWN when placement was timed
 * @param failure the failure of a fraction of the donors at once (null: --fail-fraction 0)
 * @param nothingLost every donor registered, every heartbeat was answered 200, and no heartbeating donor was shown DOWN
 */
public record SimReport(int donors, String leader, boolean tls, long heartbeatIntervalMs, Counters.Snapshot counts,
    Latencies.Summary registration, double enrollSeconds, Latencies.Summary heartbeats, Latencies.Summary heartbeatsOnWire,
    Latencies.Summary schedulerLag, Latencies.Summary laneWait, Double leaderCpuPercent,
    Double leaderCpuMsPerHeartbeat, double loadAverage, int placementCandidates,
    Latencies.Summary placement, DownWatch.Outcome failure, Churn churn, boolean nothingLost) {

  /** The churn drawn for the run: owner sessions and lab outages started, simulated hours covered. */
  public record Churn(long ownerSessions, long labOutages, int labs, double simulatedHours) {}

  String text() {
    StringBuilder s = new StringBuilder();
    s.append(String.format("cairn-sim: %d donors against %s (%s), heartbeat every %d ms%n", donors, leader,
        tls ? "TLS" : "plain HTTP", heartbeatIntervalMs));
    s.append(String.format("registered %d/%d (%d certified) in %.1f s, %.0f a second; registration p50 %.1f ms, p99 %.1f ms%n",
        counts.registered(), donors, counts.certified(), enrollSeconds, donors / enrollSeconds, registration.p50Ms(), registration.p99Ms()));
    s.append(String.format("heartbeats: %d sent, %d answered 200, %d failed; due-to-answer p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
        counts.beatsSent(), counts.beatsOk(), counts.beatErrors(), heartbeats.p50Ms(), heartbeats.p99Ms(), heartbeats.maxMs()));
    s.append(String.format("heartbeats on the wire (write to answer): p50 %.1f ms, p99 %.1f ms, max %.1f ms%n", heartbeatsOnWire.p50Ms(),
        heartbeatsOnWire.p99Ms(), heartbeatsOnWire.maxMs()));
    s.append(String.format("the simulator's own delays: scheduler late p50 %.1f ms, p99 %.1f ms, max %.1f ms; waiting for a shared connection"
        + " and its event loop p50 %.1f ms, p99 %.1f ms, max %.1f ms%n", schedulerLag.p50Ms(), schedulerLag.p99Ms(), schedulerLag.maxMs(),
        laneWait.p50Ms(), laneWait.p99Ms(), laneWait.maxMs()));
    s.append(String.format("leader CPU: %s; machine load average %.2f%n", leaderCpuPercent == null ? "not measured (no --tracker-pid)"
        : leaderCpuPercent + " % of one core, " + leaderCpuMsPerHeartbeat + " ms a heartbeat answered", loadAverage));
    if (placement.count() > 0) {
      s.append(String.format("placement over %d candidates: p50 %.1f ms, p99 %.1f ms (%d queries, 4+2, 6 alternates)%n",
          placementCandidates, placement.p50Ms(), placement.p99Ms(), placement.count()));
    }
    if (failure != null) {
      s.append(String.format("failure: %d donors failed at once; %d shown DOWN%s; heartbeating donors shown DOWN: %d%n", failure.failed(),
          failure.markedDown(), failure.seconds() < 0 ? " (not all within the limit)" : " after " + failure.seconds() + " s",
          failure.wronglyDown()));
    }
    s.append(String.format("churn: %d owner sessions, %d lab outages over %.1f simulated hours (%d labs); %d BUSY beats, %d beats skipped in outages%n",
        churn.ownerSessions(), churn.labOutages(), churn.simulatedHours(), churn.labs(), counts.busyBeats(), counts.outageSkips()));
    if (counts.firstError() != null) {
      s.append("first error: ").append(counts.firstError()).append('\n');
    }
    s.append(nothingLost ? "nothing lost\n" : "SOMETHING LOST (see above)\n");
    return s.toString();
  }
}
