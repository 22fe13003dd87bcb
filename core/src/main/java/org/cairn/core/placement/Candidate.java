package org.cairn.core.placement;

import java.util.Objects;
import org.cairn.core.availability.HostState;

/**
 * A storage host as placement sees it: current state, free quota, its CRLS against the requesting
 * compute host, the available bandwidth measured between them (bytes/s; 0 if never measured), and
 * the rate the host's disk takes Cairn's writes as the host reports it (bytes/s; 0 if unknown). A
 * piece reaches the host no faster than the slower of the two. For the per-donor cap ({@link LoadCap}): the bytes the
 * host says it holds, and the bytes the tracker itself placed there (0 for both when unknown).
 */
public final class Candidate {
  private final String id;
  private final HostState state;
  private final long freeBytes;
  private final double crls;
  private final double availableBandwidth;
  private final double diskWriteRate;
  private final long reportedHeldBytes;
  private final long placedBytes;

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
    this.reportedHeldBytes = 0;
    this.placedBytes = 0;
  }

  private Candidate(Candidate c, long reportedHeldBytes, long placedBytes) {
    this.id = c.id;
    this.state = c.state;
    this.freeBytes = c.freeBytes;
    this.crls = c.crls;
    this.availableBandwidth = c.availableBandwidth;
    this.diskWriteRate = c.diskWriteRate;
    this.reportedHeldBytes = reportedHeldBytes;
    this.placedBytes = placedBytes;
  }

  /**
   * This candidate with what it holds: {@code reportedHeldBytes} as the host reports it (heartbeats' used bytes), and
   * {@code placedBytes}, what the tracker's own placements put there (which the host cannot lie about).
   */
  public Candidate withHeld(long reportedHeldBytes, long placedBytes) {
    if (reportedHeldBytes < 0 || placedBytes < 0) {
      throw new IllegalArgumentException("held bytes must be >= 0, were " + reportedHeldBytes + " reported, " + placedBytes + " placed");
    }
    return new Candidate(this, reportedHeldBytes, placedBytes);
  }

  /** Bytes the host says it holds; 0 if unknown. */
  public long reportedHeldBytes() {
    return reportedHeldBytes;
  }

  /** Bytes the tracker's placements put on the host (as the tracker counts them); 0 if none or unknown. */
  public long placedBytes() {
    return placedBytes;
  }

  /**
   * The load the cap ranks by: the larger of what the host reports and what the tracker placed there. A host that
   * under-reports (claims 0) still carries what the tracker sent it; one that over-reports only turns load away.
   */
  public long heldBytes() {
    return Math.max(reportedHeldBytes, placedBytes);
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
