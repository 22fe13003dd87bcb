package org.cairn.core.api.member;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.Map;

/**
 * The shared availability history of one host over a window, from {@code firstSlot}, one character per
 * slot of {@code slotMillis} in {@code states}: {@link Storage} for a peer ({@code GET
 * /api/v1/peers/{id}/history}), {@link Compute} for a compute host ({@code GET /api/v1/compute/{id}/history}).
 */
public final class HostHistory {
  private HostHistory() {
  }

  /** A peer's states and the share of the window it spent in each (running, full, loaded, busy, down). */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Storage(String id, long slotMillis, long firstSlot, String states, Map<String, Double> probabilities) {}

  /** A compute host's states, the probability it is down and its mean time to failure over the window. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Compute(String id, long slotMillis, long firstSlot, String states, double pDown, double mttfSeconds) {}
}
