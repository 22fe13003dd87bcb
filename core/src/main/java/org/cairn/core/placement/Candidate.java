package org.cairn.core.placement;

import java.util.Objects;
import org.cairn.core.availability.HostState;

/**
 * A storage host as placement sees it: current state, free quota, its CRLS against the requesting
 * compute host, and the available bandwidth measured between them (bytes/s; 0 if never measured).
 */
public final class Candidate {
  private final String id;
  private final HostState state;
  private final long freeBytes;
  private final double crls;
  private final double availableBandwidth;

  public Candidate(String id, HostState state, long freeBytes, double crls, double availableBandwidth) {
    this.id = Objects.requireNonNull(id, "id");
    this.state = Objects.requireNonNull(state, "state");
    this.freeBytes = freeBytes;
    this.crls = crls;
    this.availableBandwidth = availableBandwidth;
  }

  public String id() {
    return id;
  }

  public HostState state() {
    return state;
  }

  public long freeBytes() {
    return freeBytes;
  }

  public double crls() {
    return crls;
  }

  /** Bytes per second; 0 or less means unknown. */
  public double availableBandwidth() {
    return availableBandwidth;
  }

  @Override
  public String toString() {
    return id + "(" + state + ", crls=" + crls + ", abw=" + availableBandwidth + ")";
  }
}
