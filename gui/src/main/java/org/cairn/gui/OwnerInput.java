package org.cairn.gui;

import java.awt.Point;
import java.time.Duration;

/**
 * Whether the desktop's owner is using it, from the pointer: a move between two looks counts as the owner's
 * input, and the owner counts as present until {@code idle} passes without one (BOINC's "suspend while the computer
 * is in use" with its idle time). The pointer is the one thing the JDK lets an unprivileged program see of the
 * owner's input on any desktop; keystrokes alone are not seen. Looked at each time the donor rules run.
 */
final class OwnerInput {
  /** Where the pointer is now, or null when that cannot be known (no display). */
  interface Pointer {
    Point where();
  }

  private final Pointer pointer;
  private final Duration idle;
  private Point last;
  private long inputAt;
  private boolean seen;

  OwnerInput(Pointer pointer, Duration idle) {
    if (idle.isNegative() || idle.isZero()) {
      throw new IllegalArgumentException("the idle time must be positive, was " + idle);
    }
    this.pointer = pointer;
    this.idle = idle;
  }

  /** The screen's pointer (AWT's; null when headless or the display cannot say). */
  static Pointer screen() {
    return () -> {
      try {
        java.awt.PointerInfo info = java.awt.MouseInfo.getPointerInfo();
        return info == null ? null : info.getLocation();
      } catch (java.awt.HeadlessException | SecurityException e) {
        return null;
      }
    };
  }

  /** Whether the owner counts as present at {@code nanoTime}: the pointer moved since the last look, or less than the idle time ago. */
  synchronized boolean present(long nanoTime) {
    Point now = pointer.where();
    if (now != null) {
      if (last != null && !now.equals(last)) {
        inputAt = nanoTime;
        seen = true;
      }
      last = now;
    }
    return seen && nanoTime - inputAt < idle.toNanos();
  }

  Duration idle() {
    return idle;
  }
}
