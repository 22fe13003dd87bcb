package org.cairn.client.mount;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mount's open files by handle: files being written into a node's directory (each a
 * {@link StreamingWrite}, committed at the first close), versions being read (one shared
 * {@link FetchedFile} per version) and local files (in a staging directory or a fetched directory
 * version).
 */
final class OpenFiles {
  private static final Logger LOG = LoggerFactory.getLogger(OpenFiles.class);

  /** A file being written, with the outcome of its first close (later closes of duplicated descriptors repeat it). */
  static final class Writing {
    final StreamingWrite write;
    IOException failed;
    long step;

    Writing(StreamingWrite write) {
      this.write = write;
    }
  }

  record Reading(String key, FetchedFile file) {}

  private final MountGrid grid;
  private final Path cacheDir;
  private final Executor executor;
  private final AtomicLong ids = new AtomicLong(1);
  private final Map<Long, Object> handles = new ConcurrentHashMap<>();
  private final Map<String, StreamingWrite> writing = new ConcurrentHashMap<>();
  private final Map<String, FetchedFile> reading = new HashMap<>();

  OpenFiles(MountGrid grid, Path cacheDir, Executor executor) {
    this.grid = grid;
    this.cacheDir = cacheDir;
    this.executor = executor;
  }

  /** The file being written as node/name, or null. */
  StreamingWrite writing(String node, String name) {
    return writing.get(node + "/" + name);
  }

  /** Names being written in {@code node}. */
  java.util.List<String> writingNames(String node) {
    return writing.values().stream().filter(w -> w.node().equals(node)).map(StreamingWrite::name).sorted().toList();
  }

  /** Starts writing node/name as version {@code step} (0: the next); null when that name is being written already. */
  Long create(String node, String name, long step) {
    StreamingWrite w = new StreamingWrite(grid, node, name, step, executor);
    if (writing.putIfAbsent(node + "/" + name, w) != null) {
      w.abort("a second writer of the same name");
      return null;
    }
    return register(new Writing(w));
  }

  /** Opens version node/step (a file of {@code size} bytes) for reading, sharing a fetch already under way. */
  long read(String node, long step, long size) throws IOException {
    String key = node + "/" + step;
    FetchedFile f;
    synchronized (reading) {
      f = reading.get(key);
      if (f != null) {
        f.share();
      } else {
        f = new FetchedFile(grid, node, step, size, cacheDir, executor);
        reading.put(key, f);
      }
    }
    return register(new Reading(key, f));
  }

  /** Opens a local file (staging or a fetched directory version). */
  long local(FileChannel channel) {
    return register(channel);
  }

  Object get(long fh) {
    return handles.get(fh);
  }

  /**
   * A close of handle {@code fh} (flush): a file being written is committed now, or, when its writer
   * is dying ({@code writerFailure} not null), ended without a version. Returns the committed step.
   */
  long close(Writing w, String writerFailure) throws IOException {
    synchronized (w) {
      if (w.failed != null) {
        throw w.failed;
      }
      if (w.step > 0) {
        return w.step;
      }
      StreamingWrite s = w.write;
      try {
        if (writerFailure != null) {
          s.abort(writerFailure);
          throw new IOException(s.node() + "/" + s.name() + " not stored: " + writerFailure);
        }
        w.step = s.finish();
        return w.step;
      } catch (IOException e) {
        s.abort(e.getMessage());
        w.failed = e;
        throw e;
      } finally {
        writing.remove(s.node() + "/" + s.name(), s);
      }
    }
  }

  /**
   * The last close of handle {@code fh} (release). A file being written that no close committed (its
   * last descriptor was closed by another process than the one that wrote it) is committed now.
   */
  void release(long fh) throws IOException {
    Object h = handles.remove(fh);
    if (h instanceof Writing w) {
      boolean open;
      synchronized (w) {
        open = w.step == 0 && w.failed == null;
      }
      if (open) {
        long step = close(w, null);
        LOG.info("stored {}/{} as {}.{} (at its release)", w.write.node(), w.write.name(), w.write.node(), step);
      }
    } else if (h instanceof Reading r) {
      synchronized (reading) {
        if (r.file().release()) {
          reading.remove(r.key(), r.file());
        }
      }
    } else if (h instanceof FileChannel c) {
      c.close();
    }
  }

  /** Reads from a version or a local file. */
  static ByteBuffer read(Object h, long offset, int size) throws IOException {
    if (h instanceof Reading r) {
      return r.file().read(offset, size);
    }
    ByteBuffer buf = ByteBuffer.allocate(size);
    FileChannel c = (FileChannel) h;
    while (buf.hasRemaining() && c.read(buf, offset + buf.position()) >= 0) {
      // until full or at the end
    }
    return buf.flip();
  }

  /** Unmounting: every file still being written ends without a version. */
  void abortAll(String why) {
    for (StreamingWrite w : writing.values()) {
      LOG.warn("{}/{} not stored: {}", w.node(), w.name(), why);
      w.abort(why);
    }
    writing.clear();
    for (Object h : handles.values()) {
      try {
        if (h instanceof Reading r) {
          r.file().close();
        } else if (h instanceof FileChannel c) {
          c.close();
        }
      } catch (IOException e) {
        LOG.debug("closing an open file at unmount: {}", e.toString());
      }
    }
  }

  private long register(Object handle) {
    long id = ids.getAndIncrement();
    handles.put(id, handle);
    return id;
  }
}
