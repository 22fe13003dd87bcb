package org.cairn.it;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ports for processes a test must start on ports it names in advance (a tracker group's members name
 * each other; a donor's address is checked). A port the kernel picks for {@code new ServerSocket(0)}
 * comes from the ephemeral range, and between the choice and the process's bind another process's
 * outgoing connection can take it (CI saw "Address already in use" from a tracker group member whose
 * peers were already dialling). These are taken below that range (32768-60999 by default), which the
 * kernel never hands to outgoing connections, from a base that differs per test JVM.
 */
final class Ports {
  private static final int FIRST = 10_000;
  private static final AtomicInteger NEXT = new AtomicInteger(FIRST + (int) (ProcessHandle.current().pid() % 1000) * 20);

  private Ports() {
  }

  /** A port nothing listens on now, outside the ephemeral range. */
  static int free() throws IOException {
    int below = ephemeralLow();
    for (int tries = 0; tries < 5000; tries++) {
      int port = NEXT.getAndIncrement();
      if (port >= below) {
        NEXT.set(FIRST);
        continue;
      }
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress("127.0.0.1", port));
        return port;
      } catch (IOException e) {
        // taken: the next one
      }
    }
    throw new IOException("no free port between " + FIRST + " and " + below);
  }

  private static int ephemeralLow() {
    try { // readAllLines: Files.readString reads one byte of this /proc file on JDK 17
      int low = Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim().split("\\s+")[0]);
      return low > FIRST + 1000 ? low : 32768;
    } catch (IOException | RuntimeException e) {
      return 32768;
    }
  }
}
