package org.cairn.client.mount;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a file is being closed by its writer's death. The kernel closes a dying process's files
 * as it exits, and the file system sees the same flush as for a close; but by then the task is
 * marked exiting (PF_EXITING in /proc/PID/stat's flags) and its exit code is set. A writer killed
 * by a signal, or exiting with a failure status, must leave no version (stdchk's session semantics);
 * a writer that closes the file, or exits with status 0, commits it.
 */
final class WriterExit {
  private static final long PF_EXITING = 0x4;

  private WriterExit() {}

  /** Why the task {@code pid} is dying without success, or null (alive, exiting with 0, or gone from /proc). */
  static String failed(long pid) {
    if (pid <= 0) {
      return null;
    }
    String stat;
    try {
      stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    } catch (IOException e) {
      return null;
    }
    return failedFromStat(stat);
  }

  /**
   * Whether task {@code pid} still has a descriptor open on {@code file} (an absolute path in the
   * mount): then a close was of a duplicate ({@code dup2} as dd does onto its standard output), and
   * the file is not finished. The descriptor being closed has left the task's table by the time the
   * file system hears of the close.
   */
  static boolean stillOpen(long pid, String file) {
    Path fds = Path.of("/proc", Long.toString(pid), "fd");
    try (java.util.stream.Stream<Path> s = Files.list(fds)) {
      return s.anyMatch(fd -> {
        try {
          return Files.readSymbolicLink(fd).toString().equals(file);
        } catch (IOException e) {
          return false; // closed meanwhile
        }
      });
    } catch (IOException e) {
      return false;
    }
  }

  /** {@link #failed} from the text of /proc/PID/stat (proc(5): flags is field 9, exit_code field 52). */
  static String failedFromStat(String stat) {
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      return null;
    }
    String[] f = stat.substring(close + 2).trim().split(" ");
    // f[0] is field 3 (state): field n is f[n - 3]
    if (f.length < 50) {
      return null;
    }
    long flags = Long.parseLong(f[9 - 3]);
    if ((flags & PF_EXITING) == 0) {
      return null;
    }
    int code = Integer.parseInt(f[52 - 3]);
    if ((code & 0x7f) != 0) {
      return "its writer was killed by signal " + (code & 0x7f);
    }
    if ((code >> 8 & 0xff) != 0) {
      return "its writer exited with status " + (code >> 8 & 0xff) + " without closing it";
    }
    return null;
  }
}
