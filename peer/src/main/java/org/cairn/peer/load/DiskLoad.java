package org.cairn.peer.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;

/*
 * The owner's load on the disk holding the data directory, from /proc/diskstats.
 *
 * The device's busy fraction is field 13 (io_ticks, milliseconds the device had I/O in flight)
 * sampled twice: busy = delta io_ticks / delta wall time. The device is found from the directory's
 * st_dev (major:minor).
 *
 * FALCON §3.1 states describe how loaded the donor is by its owner, so the peer's own fragment I/O
 * must not count: a donor that is only busy storing Cairn's pieces would otherwise turn BUSY in the
 * middle of a store and refuse the rest (seen in the testbed's tau2 experiment). The device does not
 * say whose I/O kept it busy, so busy time is shared out by bytes: the device moved B bytes (fields 6
 * and 10, sectors read and written, 512 bytes each), the peer process moved b of them (read_bytes +
 * write_bytes - cancelled_write_bytes of /proc/self/io, which include RocksDB's compactions), and the
 * owner's share of busy is (B - b) / B. This is exact when only one side does I/O and when both have
 * the same access pattern; an owner doing small random I/O beside Cairn's large sequential writes is
 * under-counted (its bytes cost more time each). Where /proc/self/io is unreadable nothing is
 * excluded.
 *
 * The kernel counts a process's writes when it dirties the page cache, and the device writes them
 * later, so the two do not fall into the same second: on a slow disk a peer takes in 40 MB in a
 * second that the disk writes over the next two (measured on the testbed's 20 MB/s disks: samples
 * alternated between 100 % and 0 % owner's load while only Cairn wrote). The peer's bytes therefore
 * go into a backlog that the device's bytes pay off as they come; the backlog never exceeds what
 * the peer moved in the last BACKLOG_SAMPLES samples, so pages it dirtied twice or that never
 * reached the disk are not held against the owner for long.
 *
 * Where the directory is not on a block device listed in /proc/diskstats (overlay or network file
 * systems, non-Linux), available() is false and the caller falls back to its own I/O rate.
 */
public final class DiskLoad {
  private static final long SECTOR = 512;
  private final Path diskstats;
  private final LongSupplier ownBytes;
  private final int major;
  private final int minor;
  private final boolean available;
  private long lastTicks = -1;
  private long lastDeviceBytes;
  private long lastOwnBytes;
  private long lastMillis;
  private volatile double busy;
  private volatile double external;
  /** The peer's bytes counted by the kernel that the device has not been seen to move yet. */
  private long backlog;
  static final int BACKLOG_SAMPLES = 30;
  private final java.util.ArrayDeque<Long> recentOwn = new java.util.ArrayDeque<>();

  /** ownBytes: bytes this process has moved to or from storage, or -1 when unknown. */
  public DiskLoad(Path dataDir, Path diskstats, LongSupplier ownBytes) {
    this.diskstats = diskstats;
    this.ownBytes = ownBytes;
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
    this.available = maj >= 0 && read() != null;
  }

  public static DiskLoad forDataDir(Path dataDir) {
    return new DiskLoad(dataDir, Path.of("/proc/diskstats"), ProcessIo.self());
  }

  public boolean available() {
    return available;
  }

  public String device() {
    return major + ":" + minor;
  }

  /**
   * The owner's busy fraction in [0, 1] since the previous call: the device's busy fraction less the
   * peer's own share (0 on the first call or when unavailable).
   */
  public double sample(long nowMillis) {
    long[] now = read();
    if (now == null) {
      return 0;
    }
    long own = ownBytes.getAsLong();
    double b = 0;
    double ext = 0;
    if (lastTicks >= 0 && nowMillis > lastMillis) {
      b = Math.min(1.0, Math.max(0.0, (double) (now[0] - lastTicks) / (nowMillis - lastMillis)));
      long deviceDelta = Math.max(0, now[1] - lastDeviceBytes);
      long ownDelta = own >= 0 && lastOwnBytes >= 0 ? Math.max(0, own - lastOwnBytes) : 0;
      recentOwn.addLast(ownDelta);
      if (recentOwn.size() > BACKLOG_SAMPLES) {
        recentOwn.removeFirst();
      }
      backlog = Math.min(backlog + ownDelta, recentOwn.stream().mapToLong(Long::longValue).sum());
      long ownMoved = Math.min(deviceDelta, backlog);
      backlog -= ownMoved;
      ext = b * ownerShare(deviceDelta, ownMoved);
    }
    lastTicks = now[0];
    lastDeviceBytes = now[1];
    lastOwnBytes = own;
    lastMillis = nowMillis;
    busy = b;
    external = ext;
    return ext;
  }

  /** The owner's share of the device's bytes: 1 when the device moved nothing (busy without bytes is not ours). */
  static double ownerShare(long deviceBytes, long ownBytes) {
    if (deviceBytes <= 0) {
      return 1.0;
    }
    return Math.min(1.0, Math.max(0.0, (double) (deviceBytes - Math.max(0, ownBytes)) / deviceBytes));
  }

  /** The device's whole busy fraction at the last sample, Cairn's I/O included. */
  public double lastBusy() {
    return busy;
  }

  /** The owner's busy fraction at the last sample. */
  public double lastExternal() {
    return external;
  }

  /** {io_ticks, bytes read + written} of the device, or null when it is not listed. */
  private long[] read() {
    if (major < 0) {
      return null;
    }
    try {
      List<String> lines = Files.readAllLines(diskstats);
      for (String line : lines) {
        String[] f = line.trim().split("\\s+");
        if (f.length >= 13 && Integer.parseInt(f[0]) == major && Integer.parseInt(f[1]) == minor) {
          return new long[] {Long.parseLong(f[12]), (Long.parseLong(f[5]) + Long.parseLong(f[9])) * SECTOR};
        }
      }
    } catch (IOException | NumberFormatException e) {
      // unreadable: unavailable
    }
    return null;
  }
}
