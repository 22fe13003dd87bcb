package org.cairn.gui;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZonedDateTime;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.cairn.core.config.ByteSize;

/*
 * Donor rules, as BOINC's: do not take new work while the owner's machine is busy (CPU load above a
 * threshold for a while), donate only within configured hours, and stop after a daily upload cap.
 * evaluate() returns why the peer should be BUSY now, or null; the peer then refuses new fragments
 * and repair work (reads are still served: restoring a checkpoint is what the grid is for).
 * Busy detection has hysteresis: the load must stay above (or below) the threshold for `busyAfter`.
 * With OwnerInput watched, the owner's pointer input makes it BUSY too, until its idle time passes.
 * ownerPresent() says whether the last evaluation saw the owner (input, their CPU load, or outside the
 * donation hours: the desktop is theirs now), which the donor tells this user's jobs to checkpoint on.
 */
public final class DonorRules {
  /** The settings; hours {@link DonationHours#ALWAYS} means always, cap 0 means none, threshold >= 1 disables the CPU rule. */
  public record Settings(double busyCpu, Duration busyAfter, DonationHours hours, long dailyUploadCap) {
    public Settings {
      hours = hours == null ? DonationHours.ALWAYS : hours;
    }

    public static Settings parse(double busyCpu, String busyAfter, String hours, String cap) {
      DonationHours h = DonationHours.parse(hours);
      if (!(busyCpu > 0)) {
        throw new IllegalArgumentException("busy CPU threshold must be a fraction > 0, was " + busyCpu);
      }
      return new Settings(busyCpu, org.cairn.core.config.Durations.parse(busyAfter), h,
          cap == null || cap.isBlank() ? 0 : ByteSize.parse(cap));
    }

    /** The every-day window's start, or null when there is none. */
    public LocalTime from() {
      return hours.everyDay() == null ? null : hours.everyDay().from();
    }

    /** The every-day window's end, or null when there is none. */
    public LocalTime to() {
      return hours.everyDay() == null ? null : hours.everyDay().to();
    }
  }

  private volatile Settings settings;
  private final DoubleSupplier cpuLoad;
  private final LongSupplier uploadedBytes;
  private boolean busy;
  private long crossedAt = -1;
  private java.time.LocalDate day;
  private long uploadedAtDayStart;
  private volatile OwnerInput ownerInput;
  private boolean ownerPresent;

  public DonorRules(Settings settings, DoubleSupplier cpuLoad, LongSupplier uploadedBytes) {
    this.settings = settings;
    this.cpuLoad = cpuLoad;
    this.uploadedBytes = uploadedBytes;
  }

  /** The machine's CPU load (0..1), from the JVM's view of the OS. */
  public static double systemCpuLoad() {
    java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      double v = sun.getCpuLoad();
      return v < 0 ? 0 : v;
    }
    return Math.max(0, os.getSystemLoadAverage()) / Runtime.getRuntime().availableProcessors();
  }

  public Settings settings() {
    return settings;
  }

  /** New rules from now on (the settings dialog); the busy hysteresis starts again. */
  public synchronized void update(Settings s) {
    settings = java.util.Objects.requireNonNull(s);
    busy = false;
    crossedAt = -1;
  }

  /** Watches the owner's input from now on ({@code null}: not). */
  void watchOwnerInput(OwnerInput input) {
    ownerInput = input;
  }

  /** Whether the last {@link #evaluate} saw the owner at the computer (input, CPU load, or outside the donation hours). */
  public synchronized boolean ownerPresent() {
    return ownerPresent;
  }

  /** Why the donor is BUSY now, or null. Call periodically (every few seconds). */
  public synchronized String evaluate(ZonedDateTime now, long nanoTime) {
    Settings settings = this.settings;
    String cap = capReached(settings, now);
    String outside = settings.hours().outside(now);
    OwnerInput input = ownerInput;
    String using = input != null && input.present(nanoTime) ? "the owner is using the computer" : null;
    String cpu = cpuBusy(settings, nanoTime);
    ownerPresent = outside != null || using != null || cpu != null;
    if (cap != null) {
      return cap;
    }
    if (outside != null) {
      return "outside donation hours " + outside;
    }
    return using != null ? using : cpu;
  }

  private String capReached(Settings settings, ZonedDateTime now) {
    java.time.LocalDate today = now.toLocalDate();
    long uploaded = uploadedBytes.getAsLong();
    if (!today.equals(day)) {
      day = today;
      uploadedAtDayStart = uploaded;
    }
    if (settings.dailyUploadCap() > 0 && uploaded - uploadedAtDayStart >= settings.dailyUploadCap()) {
      return "daily upload cap of " + ByteSize.format(settings.dailyUploadCap()) + " reached";
    }
    return null;
  }

  /** The CPU rule, with its hysteresis: why it makes the donor BUSY, or null. */
  private String cpuBusy(Settings settings, long nanoTime) {
    if (settings.busyCpu() < 1) {
      boolean above = cpuLoad.getAsDouble() > settings.busyCpu();
      if (above != busy) {
        if (crossedAt < 0) {
          crossedAt = nanoTime;
        }
        if (nanoTime - crossedAt >= settings.busyAfter().toNanos()) {
          busy = above;
          crossedAt = -1;
        }
      } else {
        crossedAt = -1;
      }
      if (busy) {
        return "the computer is busy (CPU above " + Math.round(settings.busyCpu() * 100) + " %)";
      }
    }
    return null;
  }

  static boolean within(LocalTime t, LocalTime from, LocalTime to) {
    return new DonationHours.Window(from, to).contains(t);
  }
}
