package org.cairn.sim.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A local process's CPU time from {@code /proc/PID/stat} (user + system, in clock ticks of 1/100 s, Linux's
 * USER_HZ): sampled at the start and the end of a window, it gives the process's CPU use in percent of one core.
 */
public final class ProcessCpu {
  private static final double TICKS_PER_SECOND = 100;
  private final long pid;
  private long startTicks;
  private long startNanos;

  public ProcessCpu(long pid) {
    if (pid <= 0) {
      throw new IllegalArgumentException("a process id is positive, was " + pid);
    }
    this.pid = pid;
  }

  public long pid() {
    return pid;
  }

  /** Starts the window. */
  public void start() throws IOException {
    startTicks = ticks();
    startNanos = System.nanoTime();
  }

  /** Percent of one core the process used since {@link #start}. */
  public double percentSinceStart() throws IOException {
    return of(secondsSinceStart(), (System.nanoTime() - startNanos) / 1e9).percent();
  }

  /** CPU-seconds (user + system) the process used since {@link #start}. */
  public double secondsSinceStart() throws IOException {
    return (ticks() - startTicks) / TICKS_PER_SECOND;
  }

  /** The CPU the process used since {@link #start} and the wall-clock seconds it used it in: read once, both from one sample. */
  public Window window() throws IOException {
    return of(secondsSinceStart(), (System.nanoTime() - startNanos) / 1e9);
  }

  private static Window of(double cpuSeconds, double wallSeconds) {
    return new Window(cpuSeconds, wallSeconds);
  }

  /** CPU-seconds over wall-clock seconds. */
  public record Window(double cpuSeconds, double wallSeconds) {
    /** Percent of one core, to a tenth. */
    public double percent() {
      return wallSeconds <= 0 ? 0 : Math.round(cpuSeconds / wallSeconds * 1000) / 10.0;
    }

    /** Milliseconds of CPU per event of {@code events} in the window (a heartbeat's cost), to a thousandth; null without events. */
    public Double millisPer(long events) {
      return events <= 0 ? null : Math.round(cpuSeconds * 1e6 / events) / 1000.0;
    }
  }

  long ticks() throws IOException {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    if (!Files.isReadable(stat)) {
      throw new IOException("no process " + pid + " on this machine (" + stat + " is not readable)");
    }
    return utimePlusStime(Files.readString(stat));
  }

  /** Fields 14 and 15 of a stat line, counted after the command's closing parenthesis (a command may hold spaces). */
  static long utimePlusStime(String statLine) {
    String rest = statLine.substring(statLine.lastIndexOf(')') + 2);
    String[] f = rest.split(" ");
    // rest starts at field 3 (state): utime is field 14, stime 15
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }
}
