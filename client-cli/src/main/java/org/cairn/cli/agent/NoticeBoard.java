package org.cairn.cli.agent;

import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.cairn.cli.agent.wire.CheckpointNotice;
import org.cairn.cli.agent.wire.Debounce;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs that watch this agent for checkpoint notices, and the fan-out of a notice to them: every job on the list
 * gets it; one that cannot be written to (it ended, its connection broke) is dropped. At most one notice per
 * {@link CheckpointNotice#MIN_GAP}: one that comes sooner is answered with how long until the next may go.
 */
final class NoticeBoard implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(NoticeBoard.class);

  /** A watching job: its name and its connection's output. */
  record Subscriber(String job, DataOutputStream wire, Closeable connection) {}

  /**
   * What became of a notice.
   *
   * @param sent whether it went out (false: within the gap after the last one)
   * @param told the jobs it reached
   * @param dropped the jobs it could not reach, taken off the list
   * @param nextInSeconds when sent is false: how long until a notice may go again
   */
  record Outcome(boolean sent, long seq, List<String> told, List<String> dropped, long nextInSeconds) {}

  private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
  private final Debounce debounce;
  private final AtomicLong seq = new AtomicLong();

  NoticeBoard(Duration gap) {
    this.debounce = new Debounce(gap);
  }

  int watching() {
    return subscribers.size();
  }

  /**
   * Holds a watch: puts the job on the list, says so, and returns when its connection ends (the job sends nothing
   * after its request, so a read that ends is the job gone), taking it off.
   */
  void hold(String job, java.nio.channels.ReadableByteChannel in, DataOutputStream wire, Closeable connection) throws IOException {
    Subscriber s = new Subscriber(CheckpointNotice.shortened(job), wire, connection);
    subscribers.add(s);
    LOG.info("job {} watches for checkpoint notices ({} watching)", s.job(), subscribers.size());
    try {
      CheckpointNotice.subscribed(wire);
      java.nio.ByteBuffer ignored = java.nio.ByteBuffer.allocate(256);
      while (in.read(ignored) >= 0) {
        ignored.clear(); // nothing is expected from a watching job; what comes is ignored until its end
      }
    } finally {
      if (subscribers.remove(s)) {
        LOG.info("job {} stopped watching ({} watching)", s.job(), subscribers.size());
      }
    }
  }

  /** Sends a notice to every watching job, unless one went less than the gap ago. */
  Outcome notifyAll(String reason, long nanoTime) {
    if (!debounce.tryPass(nanoTime)) {
      long wait = (debounce.remaining(nanoTime).toMillis() + 999) / 1000;
      LOG.info("checkpoint notice ({}) not sent: one went out less than {} s ago (the next may go in {} s)", reason,
          CheckpointNotice.MIN_GAP.toSeconds(), wait);
      return new Outcome(false, seq.get(), List.of(), List.of(), wait);
    }
    CheckpointNotice n = new CheckpointNotice(seq.incrementAndGet(), System.currentTimeMillis(), reason);
    List<String> told = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    for (Subscriber s : subscribers) {
      try {
        n.write(s.wire());
        told.add(s.job());
      } catch (IOException e) {
        subscribers.remove(s);
        dropped.add(s.job());
        closeQuietly(s.connection());
      }
    }
    LOG.info("checkpoint notice {} ({}) sent to {} job(s) {}{}", n.seq(), n.reason(), told.size(), told,
        dropped.isEmpty() ? "" : "; dropped " + dropped + " (gone)");
    return new Outcome(true, n.seq(), told, dropped, 0);
  }

  private static void closeQuietly(Closeable c) {
    try {
      c.close();
    } catch (IOException ignored) {
      // already broken
    }
  }

  /** Ends every watch (the agent stops): the jobs see their connection end. */
  @Override
  public void close() {
    for (Subscriber s : subscribers) {
      closeQuietly(s.connection());
    }
    subscribers.clear();
  }
}
