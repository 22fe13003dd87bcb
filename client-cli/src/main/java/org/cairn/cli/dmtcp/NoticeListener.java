package org.cairn.cli.dmtcp;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.cairn.cli.agent.wire.CheckpointNotice;
import org.cairn.cli.agent.wire.NoticeClient;
import org.cairn.client.store.StoreOutcome;

/**
 * A DMTCP job's ear on this user's agent: it watches the agent for checkpoint notices (the donor app's owner came
 * back, {@code cairn agent notify-checkpoint}) and on each has the job checkpoint and store now, as on SIGUSR1. With
 * no agent it says so once and tries again every {@link #RETRY}; an agent that goes away is watched again when one
 * is back. The job runs on whatever happens here.
 */
final class NoticeListener implements AutoCloseable {
  /** How often an absent agent is looked for again. */
  static final Duration RETRY = Duration.ofSeconds(5);
  /** How long a notice that comes while the program starts waits for it to run. */
  private static final Duration START_WAIT = Duration.ofMinutes(2);

  /** What a notice does: a committed checkpoint in the grid. */
  interface Checkpoint {
    StoreOutcome now(Duration startWait) throws Exception;
  }

  private final Path socket;
  private final String job;
  private final Checkpoint checkpoint;
  private final PrintWriter err;
  private final CountDownLatch stop = new CountDownLatch(1);
  private final Thread thread;
  private volatile NoticeClient.Watch watch;
  private volatile int served;

  NoticeListener(Path socket, String job, Checkpoint checkpoint, PrintWriter err) {
    this.socket = socket;
    this.job = job;
    this.checkpoint = checkpoint;
    this.err = err;
    this.thread = new Thread(this::loop, "dmtcp-notices");
    thread.setDaemon(true);
  }

  NoticeListener start() {
    thread.start();
    return this;
  }

  /** Notices acted on so far. */
  int served() {
    return served;
  }

  private void loop() {
    boolean toldAbsent = false;
    try {
      do {
        try {
          NoticeClient.Watch w = NoticeClient.watch(socket, job);
          watch = w;
          if (stop.getCount() == 0) {
            w.close();
            return;
          }
          say("watching the agent at " + socket + " for checkpoint notices");
          toldAbsent = false;
          w.run(this::onNotice);
        } catch (IOException e) {
          if (stop.getCount() == 0) {
            return;
          }
          if (!toldAbsent) {
            say("no checkpoint notices: no agent answers at " + socket + " (" + e.getMessage() + "); looking again every "
                + RETRY.toSeconds() + " s ('cairn agent' runs one)");
            toldAbsent = true;
          }
        }
      } while (!stop.await(RETRY.toMillis(), TimeUnit.MILLISECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void onNotice(CheckpointNotice n) {
    say("checkpoint notice " + n.seq() + " from the agent (" + n.reason() + "): checkpointing");
    try {
      StoreOutcome r = checkpoint.now(START_WAIT);
      served++;
      say(String.format(Locale.ROOT, "checkpoint on notice %d stored as %s.%s.%d", n.seq(), r.app(), r.node(), r.step()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      say("no checkpoint on notice " + n.seq() + ": " + e.getMessage());
    }
  }

  private void say(String line) {
    synchronized (err) {
      err.println("cairn dmtcp: " + line);
      err.flush();
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop.countDown();
    NoticeClient.Watch w = watch;
    if (w != null) {
      try {
        w.close();
      } catch (IOException ignored) {
        // closing what the agent may have closed already
      }
    }
    thread.join(Duration.ofMinutes(1).toMillis()); // a checkpoint under way ends first
  }
}
