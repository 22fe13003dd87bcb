package org.cairn.cli.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyncedFileOutputTest {
  @TempDir
  Path dir;

  @Test
  void writesEveryByte_syncsInTheBackgroundAsItGoes_andAtTheEnd() throws IOException {
    byte[] data = new byte[5 << 20];
    new Random(19).nextBytes(data);
    Path file = dir.resolve("out");
    try (Counting ch = new Counting(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE), false);
        SyncedFileOutput out = new SyncedFileOutput(ch, 1 << 20)) {
      for (int i = 0; i < data.length; i += 7777) {
        out.write(data, i, Math.min(7777, data.length - i));
      }
      out.sync();
      assertThat(ch.dataSyncs.get()).as("synced while writing").isBetween(1, 5);
      assertThat(ch.fullSyncs.get()).as("and once, fully, at the end").isEqualTo(1);
    }
    assertThat(Files.readAllBytes(file)).isEqualTo(data);
  }

  @Test
  void withoutWriteback_syncsOnlyAtTheEnd() throws IOException {
    try (Counting ch = new Counting(FileChannel.open(dir.resolve("out"), StandardOpenOption.CREATE, StandardOpenOption.WRITE), false);
        SyncedFileOutput out = new SyncedFileOutput(ch, 0)) {
      out.write(new byte[3 << 20], 0, 3 << 20);
      out.sync();
      assertThat(ch.dataSyncs.get()).isZero();
      assertThat(ch.fullSyncs.get()).isEqualTo(1);
    }
    assertThat(Files.size(dir.resolve("out"))).isEqualTo(3 << 20);
  }

  @Test
  void aFailedBackgroundSync_failsTheOutput() throws IOException {
    try (Counting ch = new Counting(FileChannel.open(dir.resolve("out"), StandardOpenOption.CREATE, StandardOpenOption.WRITE), true);
        SyncedFileOutput out = new SyncedFileOutput(ch, 1 << 20)) {
      out.write(new byte[1 << 20], 0, 1 << 20); // one buffer written: one background sync started
      assertThatThrownBy(out::sync).isInstanceOf(IOException.class).hasMessageContaining("No space left");
    }
  }

  /** A file channel that counts its syncs (and fails its data syncs when asked to). */
  private static final class Counting extends FileChannel {
    final FileChannel file;
    final boolean failDataSyncs;
    final AtomicInteger dataSyncs = new AtomicInteger();
    final AtomicInteger fullSyncs = new AtomicInteger();

    Counting(FileChannel file, boolean failDataSyncs) {
      this.file = file;
      this.failDataSyncs = failDataSyncs;
    }

    @Override
    public void force(boolean metaData) throws IOException {
      if (metaData) {
        fullSyncs.incrementAndGet();
      } else {
        dataSyncs.incrementAndGet();
        if (failDataSyncs) {
          throw new IOException("No space left on device");
        }
      }
      file.force(metaData);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      return file.write(src);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return file.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return file.read(dsts, offset, length);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      return file.write(srcs, offset, length);
    }

    @Override
    public long position() throws IOException {
      return file.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      file.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return file.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      file.truncate(size);
      return this;
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
      return file.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
      return file.transferFrom(src, position, count);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return file.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      return file.write(src, position);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
      return file.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
      return file.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      return file.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      file.close();
    }
  }
}
