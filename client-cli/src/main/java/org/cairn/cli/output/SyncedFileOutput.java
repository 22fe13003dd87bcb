package org.cairn.cli.output;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An output stream onto a file that must be durable when it is closed (a fetched version before it is
 * renamed into place), which has the kernel write the file back while it is still being written: after
 * every {@code writebackBytes} written, a background thread syncs the file's data so far (one sync at
 * a time; writes go on meanwhile). The final {@link #sync} then waits only for what came after the
 * last of those, instead of for the whole file after its last byte: the disk works while the fetch
 * reads and decodes (docs/benchmarks/journal.md). {@code writebackBytes} 0 syncs only at the end.
 * (The CLI's default is its {@code Tunables.writebackBytes}, -Dcairn.writebackBytes.)
 */
public final class SyncedFileOutput extends OutputStream {
  private static final int BUFFER = 1 << 20;

  private final FileChannel channel;
  private final long writebackBytes;
  /** Direct: a heap buffer would be copied again into the JDK's temporary direct buffer by every write. */
  private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER);
  private final AtomicBoolean syncing = new AtomicBoolean();
  /** What a background sync failed with: reported by the next write, flush or sync. */
  private final AtomicReference<IOException> failed = new AtomicReference<>();
  private Thread background;
  private long sinceSync;

  public SyncedFileOutput(FileChannel channel, long writebackBytes) {
    this.channel = channel;
    this.writebackBytes = writebackBytes;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    while (len > 0) {
      int n = Math.min(len, buffer.remaining());
      buffer.put(b, off, n);
      off += n;
      len -= n;
      if (!buffer.hasRemaining()) {
        drain();
      }
    }
  }

  @Override
  public void flush() throws IOException {
    drain();
  }

  private void drain() throws IOException {
    rethrow();
    buffer.flip();
    sinceSync += buffer.remaining();
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
    buffer.clear();
    if (writebackBytes > 0 && sinceSync >= writebackBytes && syncing.compareAndSet(false, true)) {
      sinceSync = 0;
      background = new Thread(this::syncSoFar, "writeback");
      background.setDaemon(true);
      background.start();
    }
  }

  private void syncSoFar() {
    try {
      channel.force(false);
    } catch (IOException e) {
      failed.compareAndSet(null, e);
    } finally {
      syncing.set(false);
    }
  }

  /** Writes what is buffered and makes the whole file durable (its data and metadata). */
  public void sync() throws IOException {
    drain();
    awaitBackground();
    rethrow();
    channel.force(true);
  }

  private void awaitBackground() throws IOException {
    Thread t = background;
    if (t != null) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while the file was synced");
      }
    }
  }

  private void rethrow() throws IOException {
    IOException e = failed.get();
    if (e != null) {
      throw new IOException("writing back " + e.getMessage(), e);
    }
  }

  /** Waits for a background sync; the channel is the caller's to close. */
  @Override
  public void close() throws IOException {
    awaitBackground();
  }
}
