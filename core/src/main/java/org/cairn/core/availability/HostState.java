package org.cairn.core.availability;

/**
 * The five storage-host states of FALCON's failure model (§3.1, Fig. 1), with stable byte codes for
 * the stored history.
 */
public enum HostState {
  /** S0: I/O load below tau1 and fewer than MAX_CLIENTS writers. */
  RUNNING(0, true, true),
  /** S0': MAX_CLIENTS writers; transient, refuses new writes. */
  FULL(1, false, true),
  /** S1: tau1 <= I/O load < tau2. */
  LOADED(2, true, true),
  /** S2: I/O load >= tau2; temporarily refuses writes, still serves reads. */
  BUSY(3, false, true),
  /** S3: revoked, unreachable, heartbeats missed. */
  DOWN(4, false, false);

  private final int code;
  private final boolean acceptsWrites;
  private final boolean servesReads;

  HostState(int code, boolean acceptsWrites, boolean servesReads) {
    this.code = code;
    this.acceptsWrites = acceptsWrites;
    this.servesReads = servesReads;
  }

  public int code() {
    return code;
  }

  public boolean acceptsWrites() {
    return acceptsWrites;
  }

  public boolean servesReads() {
    return servesReads;
  }

  private static final HostState[] BY_CODE = values();

  public static HostState fromCode(int code) {
    if (code < 0 || code >= BY_CODE.length) {
      throw new IllegalArgumentException("unknown host state code " + code);
    }
    return BY_CODE[code];
  }

  /** Parses a state name, case-insensitively, naming the bad value. */
  public static HostState parse(String name) {
    for (HostState s : BY_CODE) {
      if (s.name().equalsIgnoreCase(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException("state must be one of RUNNING, FULL, LOADED, BUSY, DOWN, was '" + name + "'");
  }
}
