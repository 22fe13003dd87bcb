package org.cairn.tracker.api.route;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.cairn.core.api.Endpoints;
import org.cairn.core.api.member.ComputeState;
import org.cairn.core.api.member.HostHistory;
import org.cairn.core.api.status.AvailabilityView;
import org.cairn.core.availability.Availability;
import org.cairn.core.availability.Crls;
import org.cairn.core.availability.HostState;
import org.cairn.core.availability.StateSeries;
import org.cairn.core.config.Durations;
import org.cairn.tracker.api.call.ApiException;
import org.cairn.tracker.api.call.Bindings;
import org.cairn.tracker.api.call.Call;
import org.cairn.tracker.auth.Role;
import org.cairn.tracker.history.History;
import org.cairn.tracker.membership.Membership;

/**
 * The shared availability history: a peer's states ({@code GET /api/v1/peers/{id}/history}), compute
 * hosts' heartbeats, states and history ({@code /api/v1/compute...}), and FALCON's measures of a storage
 * host against a compute host ({@code GET /api/v1/availability}).
 */
public final class HistoryRoutes {
  private final Membership membership;
  private final History history;
  private final Crls crls;
  private final Duration heartbeatInterval;

  public HistoryRoutes(Membership membership, History history, Crls crls, Duration heartbeatInterval) {
    this.membership = membership;
    this.history = history;
    this.crls = crls;
    this.heartbeatInterval = heartbeatInterval;
  }

  public void bind(Bindings b) {
    b.on(Endpoints.PEER_HISTORY, c -> peerHistory(c.param("id"), c.query()));
    b.on(Endpoints.COMPUTE, c -> new TreeMap<>(membership.computeStates()));
    b.on(Endpoints.COMPUTE_HEARTBEAT, this::computeHeartbeat);
    b.on(Endpoints.COMPUTE_HISTORY, c -> computeHistory(c.param("id"), c.query()));
    b.on(Endpoints.AVAILABILITY, c -> availability(c.query()));
  }

  /** {@code GET /api/v1/peers/{id}/history[?window=24h]}. */
  private HostHistory.Storage peerHistory(String id, Map<String, String> query) throws ApiException, IOException {
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
    return new HostHistory.Storage(id, history.slotMillis(), w[0], History.render(s, true), probabilities);
  }

  /** {@code POST /api/v1/compute/{id}/heartbeat}: the host is bound to the first caller that heartbeats it (the admin passes). */
  private ComputeState computeHeartbeat(Call<ComputeState> c) throws ApiException, IOException {
    String id = c.param("id");
    String state = c.body() == null || c.body().state() == null ? "UP" : c.body().state();
    if (!state.equalsIgnoreCase("UP") && !state.equalsIgnoreCase("DOWN")) {
      throw new ApiException(400, "compute state must be UP or DOWN, was '" + state + "'");
    }
    membership.computeHeartbeat(id, state.equalsIgnoreCase("UP"), c.who().role() == Role.ADMIN ? null : c.who().tokenId());
    return new ComputeState(id, state.toUpperCase(Locale.ROOT), heartbeatInterval.toMillis());
  }

  /** {@code GET /api/v1/compute/{id}/history[?window=14d]}. */
  private HostHistory.Compute computeHistory(String id, Map<String, String> query) throws IOException {
    long[] w = window(query, "14d");
    StateSeries s = history.computeSeries(id, w[0], w[1]);
    return new HostHistory.Compute(id, history.slotMillis(), w[0], History.render(s, false),
        Availability.computeProbability(s, StateSeries.COMPUTE_DOWN, w[0], w[1]),
        Availability.mttfSlots(s, w[0], w[1]) * history.slotMillis() / 1000.0);
  }

  /** CR, LI and CRLS of one storage host against one compute host, and the conditional probabilities. */
  private AvailabilityView availability(Map<String, String> query) throws ApiException, IOException {
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
    return new AvailabilityView(storage, compute, w[1] - w[0],
        Availability.computeProbability(ch, StateSeries.COMPUTE_DOWN, w[0], w[1]), givenUp, givenDown,
        crls.correlatedReliability(sh, ch, w[0], w[1]), crls.loadIndicator(sh, ch, w[0], w[1]), crls.score(sh, ch, w[0], w[1]));
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
