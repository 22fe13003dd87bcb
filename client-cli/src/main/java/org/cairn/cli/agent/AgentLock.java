package org.cairn.cli.agent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lock an agent holds for its whole life on {@code SOCKET.lock} (0600, holding its pid): one agent
 * per socket, and a command that finds the lock held while the socket is not there yet (an agent
 * warming up) does not start another. The kernel drops the lock when the process dies, however it dies.
 */
final class AgentLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private AgentLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  static Path pathOf(Path socket) {
    return socket.resolveSibling(socket.getFileName() + ".lock");
  }

  /** The lock of {@code socket}'s agent, or null when another process (or this one) holds it. */
  static AgentLock take(Path socket) throws IOException {
    Path file = pathOf(socket);
    FileChannel ch = FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
        java.nio.file.attribute.PosixFilePermissions.asFileAttribute(org.cairn.client.keys.PrivateDirs.SECRET_FILE));
    try {
      FileLock l = ch.tryLock();
      if (l == null) {
        ch.close();
        return null;
      }
      ch.truncate(0);
      ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
      return new AgentLock(ch, l);
    } catch (OverlappingFileLockException e) {
      ch.close();
      return null;
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /** Whether an agent holds {@code socket}'s lock now (starting or serving). */
  static boolean held(Path socket) {
    try (AgentLock l = take(socket)) {
      return l == null;
    } catch (IOException e) {
      return false; // a directory this user cannot write: no agent of this user's there
    }
  }

  /**
   * The agent holding {@code socket}'s lock (one starting up, or serving), by the pid its lock file names; empty otherwise.
   * Only a lock file of this user's naming a live {@code cairn agent} of this user's counts: a file another user put
   * beside a socket in a shared directory cannot make {@code agent stop} signal some other process.
   */
  static java.util.Optional<ProcessHandle> holder(Path socket) {
    if (!held(socket)) {
      return java.util.Optional.empty();
    }
    try {
      Path file = pathOf(socket);
      String me = System.getProperty("user.name");
      if (!java.nio.file.Files.getOwner(file, java.nio.file.LinkOption.NOFOLLOW_LINKS).getName().equals(me)) {
        return java.util.Optional.empty();
      }
      long pid = Long.parseLong(java.nio.file.Files.readString(file, StandardCharsets.US_ASCII).strip());
      return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
          .filter(p -> p.info().user().map(me::equals).orElse(false))
          .filter(p -> p.info().arguments().map(a -> java.util.Arrays.asList(a).contains("agent")).orElse(false));
    } catch (IOException | NumberFormatException e) {
      return java.util.Optional.empty(); // held, its pid not written yet
    }
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
