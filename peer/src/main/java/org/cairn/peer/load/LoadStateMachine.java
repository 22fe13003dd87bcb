package org.cairn.peer.load;

import org.cairn.core.availability.HostState;

/*
 * FALCON §3.1: RUNNING below tau1 I/O load with fewer than MAX_CLIENTS writers; FULL at MAX_CLIENTS
 * writers; LOADED for tau1 <= load < tau2; BUSY at load >= tau2 (defaults tau1 = 50 %, tau2 = 80 %,
 * MAX_CLIENTS = 8). The load is smoothed with an exponentially weighted moving average so one
 * burst does not flip the state. A paused donor reports BUSY-like refusal through its paused flag,
 * not through the state, so the history still shows its real load.
 */
public final class LoadStateMachine {
  private final double tau1;
  private final double tau2;
  private final int maxClients;
  private final double smoothing;
  private double load = -1;

  public LoadStateMachine(double tau1, double tau2, int maxClients, double smoothing) {
    if (!(tau1 > 0 && tau1 < tau2 && tau2 <= 1)) {
      throw new IllegalArgumentException("need 0 < tau1 < tau2 <= 1, were tau1=" + tau1 + " tau2=" + tau2);
    }
    if (maxClients < 1) {
      throw new IllegalArgumentException("max clients must be at least 1, was " + maxClients);
    }
    if (!(smoothing > 0 && smoothing <= 1)) {
      throw new IllegalArgumentException("smoothing must be in (0, 1], was " + smoothing);
    }
    this.tau1 = tau1;
    this.tau2 = tau2;
    this.maxClients = maxClients;
    this.smoothing = smoothing;
  }

  /** Feeds a busy-fraction sample; returns the smoothed load. */
  public double observe(double busyFraction) {
    load = load < 0 ? busyFraction : smoothing * busyFraction + (1 - smoothing) * load;
    return load;
  }

  public double load() {
    return Math.max(0, load);
  }

  public HostState state(int activeClients) {
    double l = load();
    if (l >= tau2) {
      return HostState.BUSY;
    }
    if (l >= tau1) {
      return HostState.LOADED;
    }
    if (activeClients >= maxClients) {
      return HostState.FULL;
    }
    return HostState.RUNNING;
  }
}
