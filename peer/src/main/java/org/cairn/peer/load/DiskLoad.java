package org.cairn.peer.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/*
 * Disk busy fraction of the block device holding the data directory, from /proc/diskstats: field 13
 * (io_ticks, milliseconds the device had I/O in flight) sampled twice; busy = delta io_ticks / delta
 * wall time. The device is found from the directory's st_dev (major:minor). Where that is not a
 * block device listed in /proc/diskstats (overlay or network file systems, non-Linux), available()
 * is false and the caller falls back to its own I/O rate.
 */
public final class DiskLoad {
  private final Path diskstats;
  private final int major;
  private final int minor;
  private final boolean available;
  private long lastTicks = -1;
  private long lastMillis;

  public DiskLoad(Path dataDir, Path diskstats) {
    this.diskstats = diskstats;
    int maj = -1;
    int min = -1;
    try {
      long dev = ((Number) Files.getAttribute(dataDir, "unix:dev")).longValue();
      maj = (int) (((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfff));
      min = (int) ((dev & 0xff) | ((dev >>> 12) & ~0xff));
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // not a Unix file system: no device numbers
    }
    this.major = maj;
    this.minor = min;
    this.available = maj >= 0 && ioTicks().isPresent();
  }

  public static DiskLoad forDataDir(Path dataDir) {
    return new DiskLoad(dataDir, Path.of("/proc/diskstats"));
  }

  public boolean available() {
    return available;
  }

  public String device() {
    return major + ":" + minor;
  }

  /** Busy fraction in [0, 1] since the previous call (0 on the first call or when unavailable). */
  public double sample(long nowMillis) {
    OptionalLong ticks = ioTicks();
    if (ticks.isEmpty()) {
      return 0;
    }
    double busy = 0;
    if (lastTicks >= 0 && nowMillis > lastMillis) {
      busy = Math.min(1.0, Math.max(0.0, (double) (ticks.getAsLong() - lastTicks) / (nowMillis - lastMillis)));
    }
    lastTicks = ticks.getAsLong();
    lastMillis = nowMillis;
    return busy;
  }

  private OptionalLong ioTicks() {
    if (major < 0) {
      return OptionalLong.empty();
    }
    try {
      List<String> lines = Files.readAllLines(diskstats);
      for (String line : lines) {
        String[] f = line.trim().split("\\s+");
        if (f.length >= 13 && Integer.parseInt(f[0]) == major && Integer.parseInt(f[1]) == minor) {
          return OptionalLong.of(Long.parseLong(f[12]));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // unreadable: unavailable
    }
    return OptionalLong.empty();
  }
}
