package org.cairn.cli.dmtcp;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.cairn.client.advise.Advice;
import org.cairn.client.advise.CheckpointCosts;

/**
 * {@code cairn dmtcp launch|restart --interval auto}: Cairn, not DMTCP, decides when the job checkpoints. DMTCP
 * runs with its own timer off; this thread asks for the advised interval ({@code cairn advise}'s), waits it,
 * checkpoints the job with {@code dmtcp_command -bc} (which returns once every process has written its image and
 * resumed: that wait is what the checkpoint cost the job, noted in {@link CheckpointCosts}), and asks again, so
 * the interval follows the host's history and the measured cost as they change.
 */
final class AutoInterval implements AutoCloseable {
  /** The interval used while no advice can be had (the tracker is unreachable): DMTCP jobs' default. */
  static final Duration FALLBACK = Duration.ofMinutes(10);
  /** How long a checkpoint waits for the coordinator's port file to appear. */
  static final Duration PORT_WAIT = Duration.ofSeconds(30);

  /** The advice now. */
  interface Advise {
    Advice now() throws Exception;
  }

  /** Checkpoints the job; returns how long the job was paused. */
  interface Checkpoint {
    Duration take() throws Exception;
  }

  private final Advise advise;
  private final Checkpoint checkpoint;
  private final CheckpointCosts costs;
  private final String app;
  private final String node;
  private final PrintWriter err;
  private final CountDownLatch stop = new CountDownLatch(1);
  private final Thread thread;
  private volatile int checkpoints;
  private long lastSeconds;

  AutoInterval(Advise advise, Checkpoint checkpoint, CheckpointCosts costs, String app, String node, PrintWriter err) {
    this.advise = advise;
    this.checkpoint = checkpoint;
    this.costs = costs;
    this.app = app;
    this.node = node;
    this.err = err;
    this.thread = new Thread(this::loop, "dmtcp-auto-interval");
    thread.setDaemon(true);
  }

  /** Starts checkpointing on the advised interval. */
  AutoInterval start() {
    thread.start();
    return this;
  }

  int checkpoints() {
    return checkpoints;
  }

  private void loop() {
    try {
      while (!stop.await(interval().toMillis(), TimeUnit.MILLISECONDS)) {
        try {
          Duration pause = checkpoint.take();
          checkpoints++;
          costs.record(app, node, pause, "dmtcp");
        } catch (Exception e) {
          say("checkpoint failed (" + e.getMessage() + "); trying again after the next interval");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The advised interval, said when it changes; the last one (or {@link #FALLBACK}) when no advice can be had. */
  private Duration interval() {
    try {
      Advice a = advise.now();
      if (a.intervalSeconds() != lastSeconds) {
        say(String.format(Locale.ROOT, "checkpointing every %d s (mean time to interruption %.0f s, checkpoint %.1f s, %s's formula, "
            + "confidence %s)", a.intervalSeconds(), a.mtbfSeconds(), a.checkpointSeconds(), a.formula(), a.confidence()));
        lastSeconds = a.intervalSeconds();
      }
    } catch (Exception e) {
      long keep = lastSeconds > 0 ? lastSeconds : FALLBACK.toSeconds();
      say("no advice (" + e.getMessage() + "); checkpointing every " + keep + " s");
      lastSeconds = keep;
    }
    return Duration.ofSeconds(lastSeconds);
  }

  private void say(String line) {
    err.println("cairn dmtcp: " + line);
    err.flush();
  }

  @Override
  public void close() throws InterruptedException {
    stop.countDown();
    thread.join(Duration.ofMinutes(1).toMillis()); // a checkpoint under way ends first
  }

  /**
   * A blocking checkpoint of the computation whose coordinator wrote its port to {@code portFile}: {@code dmtcp_command
   * --coord-port P -bc}; the answer is how long it blocked.
   */
  static Checkpoint dmtcpCommand(Path portFile) {
    return () -> {
      String port = awaitPort(portFile);
      long t0 = System.nanoTime();
      Process p = new ProcessBuilder(List.of(DmtcpJob.onPath("dmtcp_command"), "--coord-port", port, "-bc"))
          .redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      int status = p.waitFor();
      Duration took = Duration.ofNanos(System.nanoTime() - t0);
      if (status != 0) {
        throw new IOException("dmtcp_command -bc exited with " + status + (out.isEmpty() ? "" : ": " + out));
      }
      return took;
    };
  }

  private static String awaitPort(Path portFile) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + PORT_WAIT.toNanos();
    while (true) {
      String port = Files.exists(portFile) ? Files.readString(portFile, StandardCharsets.UTF_8).strip() : "";
      if (port.matches("\\d+")) {
        return port;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("DMTCP's coordinator wrote no port to " + portFile + " within " + PORT_WAIT.toSeconds() + " s");
      }
      Thread.sleep(100); // a file another process writes: nothing to wait on but its appearance
    }
  }
}
