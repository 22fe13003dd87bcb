package org.cairn.core.availability;

import java.util.Arrays;

/**
 * One host's state in consecutive fixed time slots (the tracker samples every host once per slot;
 * default one minute), aligned to a shared slot clock so two hosts' series can be compared slot by
 * slot. A slot the host was not observed in is {@link #UNKNOWN}.
 *
 * Storage hosts use {@link HostState} codes; compute hosts use {@link #UP} / {@link #COMPUTE_DOWN}.
 */
public final class StateSeries {
  public static final byte UNKNOWN = -1;
  /** Compute host running its job. */
  public static final byte UP = 0;
  /** Compute host down (evicted, crashed). */
  public static final byte COMPUTE_DOWN = 1;

  private final long firstSlot;
  private final byte[] samples;

  /**
   * @param firstSlot the slot number of {@code samples[0]} (slot = time / slot length)
   * @param samples state codes, {@link #UNKNOWN} where not observed (not copied)
   */
  public StateSeries(long firstSlot, byte[] samples) {
    this.firstSlot = firstSlot;
    this.samples = samples;
  }

  public static StateSeries of(long firstSlot, HostState... states) {
    byte[] b = new byte[states.length];
    for (int i = 0; i < states.length; i++) {
      b[i] = states[i] == null ? UNKNOWN : (byte) states[i].code();
    }
    return new StateSeries(firstSlot, b);
  }

  /** A compute host's series from a string of 'U' (up), 'D' (down) and '.' (unknown). */
  public static StateSeries compute(long firstSlot, String upDown) {
    byte[] b = new byte[upDown.length()];
    for (int i = 0; i < b.length; i++) {
      char c = upDown.charAt(i);
      b[i] = c == 'U' ? UP : c == 'D' ? COMPUTE_DOWN : UNKNOWN;
    }
    return new StateSeries(firstSlot, b);
  }

  public long firstSlot() {
    return firstSlot;
  }

  /** Slot after the last one. */
  public long endSlot() {
    return firstSlot + samples.length;
  }

  public int length() {
    return samples.length;
  }

  /** The code at an absolute slot, {@link #UNKNOWN} outside the series. */
  public byte at(long slot) {
    long i = slot - firstSlot;
    return i < 0 || i >= samples.length ? UNKNOWN : samples[(int) i];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StateSeries && ((StateSeries) o).firstSlot == firstSlot && Arrays.equals(((StateSeries) o).samples, samples);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(firstSlot) * 31 + Arrays.hashCode(samples);
  }
}
