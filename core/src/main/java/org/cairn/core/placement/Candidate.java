package org.cairn.core.placement;

import java.util.Objects;
import org.cairn.core.availability.HostState;

/**
 * A storage host as placement sees it: current state, free quota, its CRLS against the requesting
 * compute host, the available bandwidth measured between them (bytes/s; 0 if never measured), and
 * the rate the host's disk takes Cairn's writes as the host reports it (bytes/s; 0 if unknown). A
 * piece reaches the host no faster than the slower of the two.
 */
public final class Candidate {
  private final String id;
  private final HostState state;
  private final long freeBytes;
  private final double crls;
  private final double availableBandwidth;
  private final double diskWriteRate;

  public Candidate(String id, HostState state, long freeBytes, double crls, double availableBandwidth) {
    this(id, state, freeBytes, crls, availableBandwidth, 0);
  }

  public Candidate(String id, HostState state, long freeBytes, double crls, double availableBandwidth, double diskWriteRate) {
    this.id = Objects.requireNonNull(id, "id");
    this.state = Objects.requireNonNull(state, "state");
    this.freeBytes = freeBytes;
    this.crls = crls;
    this.availableBandwidth = availableBandwidth;
    this.diskWriteRate = diskWriteRate;
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

  /** Bytes per second the host's disk takes Cairn's writes; 0 or less means unknown. */
  public double diskWriteRate() {
    return diskWriteRate;
  }

  /**
   * The rate a piece reaches this host's disk at: the link's (or {@code defaultBandwidth} when never
   * measured), capped by the disk's when the host reported one.
   */
  public double expectedRate(double defaultBandwidth) {
    double link = availableBandwidth > 0 ? availableBandwidth : defaultBandwidth;
    return diskWriteRate > 0 ? Math.min(link, diskWriteRate) : link;
  }

  @Override
  public String toString() {
    return id + "(" + state + ", crls=" + crls + ", abw=" + availableBandwidth + (diskWriteRate > 0 ? ", disk=" + diskWriteRate : "") + ")";
  }
}
