package org.cairn.client.mount;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.cairn.core.api.catalog.VersionRow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StreamingWriteTest {
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final Recording grid = new Recording();

  @AfterEach
  void stop() {
    executor.shutdownNow();
  }

  /** Stores what it reads, and remembers whether a store ended in a version. */
  static class Recording implements MountGrid {
    final List<byte[]> committed = new ArrayList<>();
    final List<String> failed = new ArrayList<>();

    @Override
    public long store(InputStream in, String node, long step, boolean directory) throws IOException {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      try {
        in.transferTo(all);
      } catch (IOException e) {
        synchronized (this) {
          failed.add(e.getMessage());
        }
        throw e;
      }
      synchronized (this) {
        committed.add(all.toByteArray());
        return committed.size();
      }
    }

    @Override
    public List<String> nodes() {
      return List.of();
    }

    @Override
    public List<VersionRow> versions(String node) {
      return List.of();
    }

    @Override
    public void fetch(String node, long step, OutputStream out) {}

    @Override
    public void fetchDirectory(String node, long step, Path target) {}

    @Override
    public void delete(String node, long step) {}

    @Override
    public Space space() {
      return new Space(0, 0);
    }
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void frontToBackWritesOfOddSizesAreStoredAsWrittenAtTheClose() throws Exception {
    byte[] image = bytes(3_000_001, 1);
    StreamingWrite w = new StreamingWrite(grid, "n1", "ckpt", 0, executor);
    for (int at = 0; at < image.length; at += 12345) {
      w.write(at, Arrays.copyOfRange(image, at, Math.min(image.length, at + 12345)));
    }
    assertThat(grid.committed).as("nothing is a version before the close").isEmpty();
    assertThat(w.length()).isEqualTo(image.length);
    assertThat(w.finish()).isEqualTo(1);
    assertThat(grid.committed).hasSize(1);
    assertThat(grid.committed.get(0)).isEqualTo(image);
  }

  @Test
  void aBlockAheadWaitsForTheGapAndAnUnfilledGapIsAHoleOfZeros() throws Exception {
    StreamingWrite w = new StreamingWrite(grid, "n1", "sparse", 0, executor);
    byte[] a = bytes(1000, 2);
    byte[] b = bytes(1000, 3);
    w.write(2000, b); // ahead of the gap 0..2000
    w.write(0, a);    // 1000..2000 stays a hole
    w.truncate(5000); // and the end is a hole up to 5000
    w.finish();
    byte[] expected = new byte[5000];
    System.arraycopy(a, 0, expected, 0, 1000);
    System.arraycopy(b, 0, expected, 2000, 1000);
    assertThat(grid.committed.get(0)).isEqualTo(expected);
  }

  @Test
  void rewritingStoredBytesOrShrinkingIsRefused() throws Exception {
    StreamingWrite w = new StreamingWrite(grid, "n1", "x", 0, executor);
    w.write(0, bytes(4096, 4));
    assertThatThrownBy(() -> w.write(100, bytes(10, 5))).hasMessageContaining("rewrites bytes already stored");
    w.write(8192, bytes(100, 6));
    assertThatThrownBy(() -> w.write(8000, bytes(300, 7))).hasMessageContaining("overlaps");
    assertThatThrownBy(() -> w.truncate(100)).hasMessageContaining("cannot shrink");
  }

  @Test
  void anAbortedWriteLeavesNoVersion() throws Exception {
    StreamingWrite w = new StreamingWrite(grid, "n1", "killed", 0, executor);
    w.write(0, bytes(1 << 20, 8));
    w.abort("its writer was killed by signal 9");
    assertThatThrownBy(w::finish).isInstanceOf(IOException.class).hasMessageContaining("killed by signal 9");
    assertThat(grid.committed).isEmpty();
    assertThat(grid.failed).containsExactly("its writer was killed by signal 9");
    assertThatThrownBy(() -> w.write(1 << 20, bytes(10, 9))).hasMessageContaining("closed");
  }

  @Test
  void aStoreThatFailsReleasesAWriterWaitingOnAFullPipe() throws Exception {
    MountGrid broken = new Recording() {
      @Override
      public long store(InputStream in, String node, long step, boolean directory) throws IOException {
        in.read(new byte[10]);
        throw new IOException("tracker unreachable");
      }
    };
    StreamingWrite w = new StreamingWrite(broken, "n1", "x", 0, executor);
    assertThatThrownBy(() -> {
      for (int i = 0; i < 1000; i++) { // far more than the pipe holds
        w.write((long) i << 17, new byte[1 << 17]);
      }
    }).hasMessageContaining("tracker unreachable");
  }
}
