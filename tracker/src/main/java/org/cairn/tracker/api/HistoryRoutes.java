package org.cairn.tracker.api;

import static org.cairn.tracker.api.Requests.json;
import static org.cairn.tracker.api.Requests.read;
import static org.cairn.tracker.api.Requests.requireMethod;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.cairn.core.api.AvailabilityView;
import org.cairn.core.api.ComputeState;
import org.cairn.core.api.HostHistory;
import org.cairn.core.availability.Availability;
import org.cairn.core.availability.Crls;
import org.cairn.core.availability.HostState;
import org.cairn.core.availability.StateSeries;
import org.cairn.core.config.Durations;
import org.cairn.tracker.history.History;
import org.cairn.tracker.membership.Membership;

/**
 * The shared availability history: a peer's states ({@code GET /api/v1/peers/{id}/history}), compute
 * hosts' heartbeats, states and history ({@code /api/v1/compute...}), and FALCON's measures of a storage
 * host against a compute host ({@code GET /api/v1/availability}).
 */
final class HistoryRoutes {
  private final Membership membership;
  private final History history;
  private final Crls crls;
  private final Duration heartbeatInterval;

  HistoryRoutes(Membership membership, History history, Crls crls, Duration heartbeatInterval) {
    this.membership = membership;
    this.history = history;
    this.crls = crls;
    this.heartbeatInterval = heartbeatInterval;
  }

  /** {@code GET /api/v1/peers/{id}/history[?window=24h]}. */
  Response peerHistory(String method, String id, Map<String, String> query) throws ApiException, IOException {
    requireMethod(method, "GET");
    if (membership.peer(id) == null) {
      throw new ApiException(404, "unknown peer '" + id + "'");
    }
    long[] w = window(query, "24h");
    StateSeries s = history.storageSeries(id, w[0], w[1]);
    double[] p = Availability.stateProbabilities(s, w[0], w[1]);
    Map<String, Double> probabilities = new LinkedHashMap<>();
    for (HostState st : HostState.values()) {
      probabilities.put(st.name(), p[st.code()]);
    }
    return json(200, new HostHistory.Storage(id, history.slotMillis(), w[0], History.render(s, true), probabilities));
  }

  /** {@code GET /api/v1/compute}, {@code POST /api/v1/compute/{id}/heartbeat}, {@code GET /api/v1/compute/{id}/history}. */
  Response compute(String method, String id, String action, Map<String, String> query, byte[] body) throws ApiException, IOException {
    if (id == null) {
      requireMethod(method, "GET");
      return json(200, new TreeMap<>(membership.computeStates()));
    }
    if ("heartbeat".equals(action)) {
      requireMethod(method, "POST");
      ComputeState c = body.length == 0 ? new ComputeState(id, "UP") : read(body, ComputeState.class);
      String state = c.state() == null ? "UP" : c.state();
      if (!state.equalsIgnoreCase("UP") && !state.equalsIgnoreCase("DOWN")) {
        throw new ApiException(400, "compute state must be UP or DOWN, was '" + state + "'");
      }
      membership.computeHeartbeat(id, state.equalsIgnoreCase("UP"));
      return json(200, new ComputeState(id, state.toUpperCase(Locale.ROOT), heartbeatInterval.toMillis()));
    }
    if ("history".equals(action)) {
      requireMethod(method, "GET");
      long[] w = window(query, "14d");
      StateSeries s = history.computeSeries(id, w[0], w[1]);
      return json(200, new HostHistory.Compute(id, history.slotMillis(), w[0], History.render(s, false),
          Availability.computeProbability(s, StateSeries.COMPUTE_DOWN, w[0], w[1]),
          Availability.mttfSlots(s, w[0], w[1]) * history.slotMillis() / 1000.0));
    }
    throw new ApiException(404, "no such compute action '" + action + "'");
  }

  /** CR, LI and CRLS of one storage host against one compute host, and the conditional probabilities. */
  Response availability(String method, Map<String, String> query) throws ApiException, IOException {
    requireMethod(method, "GET");
    String storage = query.get("storage");
    String compute = query.get("compute");
    if (storage == null || compute == null) {
      throw new ApiException(400, "give ?storage=PEER_ID&compute=CLIENT_ID (and optionally &window=7d)");
    }
    long[] w = window(query, "7d");
    StateSeries sh = history.storageSeries(storage, w[0], w[1]);
    StateSeries ch = history.computeSeries(compute, w[0], w[1]);
    Map<String, Double> givenUp = new LinkedHashMap<>();
    Map<String, Double> givenDown = new LinkedHashMap<>();
    for (HostState s : HostState.values()) {
      givenUp.put(s.name(), nullIfNaN(Availability.conditional(sh, ch, StateSeries.UP, w[0], w[1], s)));
      givenDown.put(s.name(), nullIfNaN(Availability.conditional(sh, ch, StateSeries.COMPUTE_DOWN, w[0], w[1], s)));
    }
    return json(200, new AvailabilityView(storage, compute, w[1] - w[0],
        Availability.computeProbability(ch, StateSeries.COMPUTE_DOWN, w[0], w[1]), givenUp, givenDown,
        crls.correlatedReliability(sh, ch, w[0], w[1]), crls.loadIndicator(sh, ch, w[0], w[1]), crls.score(sh, ch, w[0], w[1])));
  }

  /** The slots [from, to) of {@code ?window=} (default {@code defaultWindow}) ending with the current slot. */
  private long[] window(Map<String, String> query, String defaultWindow) {
    Duration d = Durations.parse(query.getOrDefault("window", defaultWindow));
    long to = history.currentSlot() + 1;
    long slots = history.slots(d);
    if (slots > 1_000_000) {
      throw new IllegalArgumentException("window too long: " + slots + " slots (at most 1,000,000)");
    }
    return new long[] {to - slots, to};
  }

  private static Double nullIfNaN(double v) {
    return Double.isNaN(v) ? null : v;
  }
}
