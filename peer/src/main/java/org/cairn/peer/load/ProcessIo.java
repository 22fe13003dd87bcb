package org.cairn.peer.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/*
 * Bytes a process has caused to be read from or written to storage, from /proc/PID/io:
 * read_bytes + write_bytes - cancelled_write_bytes (pages dirtied and then truncated never reach
 * the disk). Counts every thread, so RocksDB's flushes and compactions are included; page-cache
 * hits are not. -1 where the file is missing or unreadable (no task I/O accounting).
 */
public final class ProcessIo implements LongSupplier {
  private final Path file;

  public ProcessIo(Path file) {
    this.file = file;
  }

  public static ProcessIo self() {
    return new ProcessIo(Path.of("/proc/self/io"));
  }

  @Override
  public long getAsLong() {
    try {
      long read = -1;
      long write = -1;
      long cancelled = 0;
      for (String line : Files.readAllLines(file)) {
        int colon = line.indexOf(':');
        if (colon < 0) {
          continue;
        }
        String key = line.substring(0, colon).trim();
        switch (key) {
          case "read_bytes" -> read = Long.parseLong(line.substring(colon + 1).trim());
          case "write_bytes" -> write = Long.parseLong(line.substring(colon + 1).trim());
          case "cancelled_write_bytes" -> cancelled = Long.parseLong(line.substring(colon + 1).trim());
          default -> { }
        }
      }
      return read < 0 || write < 0 ? -1 : Math.max(0, read + write - cancelled);
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
  }
}
