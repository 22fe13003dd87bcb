package org.cairn.client.mount;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A file version being read: fetched front to back in the background (the fetch pipeline's
 * read-ahead) into a local cache file, and each read served as soon as the bytes it needs are
 * there, so a reader starts before the whole version is fetched. The cache file is deleted when
 * the last reader closes it.
 */
final class FetchedFile implements AutoCloseable {
  private final long size;
  private final FileChannel channel;
  private long fetched;
  private IOException failure;
  private boolean closed;
  private int readers = 1;

  FetchedFile(MountGrid grid, String node, long step, long size, Path cacheDir, Executor executor) throws IOException {
    this.size = size;
    Path file = Files.createTempFile(cacheDir, node + "." + step + ".", ".reading");
    this.channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
    CompletableFuture.runAsync(() -> {
      try (OutputStream out = new Sink()) {
        grid.fetch(node, step, out);
        finished(null);
      } catch (IOException | RuntimeException e) {
        finished(e instanceof IOException io ? io : new IOException(e));
      }
    }, executor);
  }

  /** Another reader of the same version. */
  synchronized FetchedFile share() {
    readers++;
    return this;
  }

  /** Up to {@code length} bytes at {@code offset}, once fetched (empty at the end of the file). */
  ByteBuffer read(long offset, int length) throws IOException {
    long want = Math.min(size, offset + length);
    synchronized (this) {
      while (fetched < want && failure == null && !closed) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted waiting for the fetch");
        }
      }
      if (fetched < want) {
        throw failure != null ? failure : new IOException("closed");
      }
    }
    ByteBuffer buf = ByteBuffer.allocate((int) Math.max(0, want - offset));
    while (buf.hasRemaining()) {
      if (channel.read(buf, offset + buf.position()) < 0) {
        break;
      }
    }
    return buf.flip();
  }

  /** One reader is done; the last one stops the fetch and deletes the cache file. True when that was the last. */
  boolean release() throws IOException {
    synchronized (this) {
      if (--readers > 0) {
        return false;
      }
      closed = true;
      notifyAll();
    }
    close();
    return true;
  }

  @Override
  public void close() throws IOException {
    synchronized (this) {
      closed = true;
      notifyAll();
    }
    channel.close();
  }

  private synchronized void finished(IOException e) {
    if (e != null && failure == null) {
      failure = e;
    } else if (e == null && fetched < size) {
      failure = new IOException("the fetch ended after " + fetched + " of " + size + " bytes");
    }
    notifyAll();
  }

  /** Writes the fetched bytes into the cache file and wakes the readers waiting for them. */
  private final class Sink extends OutputStream {
    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      long at;
      synchronized (FetchedFile.this) {
        if (closed) {
          throw new IOException("every reader closed the file");
        }
        at = fetched;
      }
      ByteBuffer buf = ByteBuffer.wrap(b, off, len);
      while (buf.hasRemaining()) {
        channel.write(buf, at + buf.position() - off);
      }
      synchronized (FetchedFile.this) {
        fetched = at + len;
        FetchedFile.this.notifyAll();
      }
    }
  }
}
