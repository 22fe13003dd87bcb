package org.cairn.gui;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.cairn.cli.agent.wire.AgentSocket;
import org.cairn.cli.agent.wire.CheckpointNotice;
import org.cairn.cli.agent.wire.Debounce;
import org.cairn.cli.agent.wire.NoticeClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells this user's Cairn agent that the owner is back, so the jobs it serves checkpoint now ({@code cairn agent
 * notify-checkpoint}'s notice): over the agent's Unix socket, which only this user can reach and which checks its
 * peer is this user. At most one notice per {@link CheckpointNotice#MIN_GAP} (the agent holds to it too); sent from
 * a thread of its own, so the donor rules never wait on it. No agent: one line in the log, nothing else.
 */
final class CheckpointNotifier implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointNotifier.class);

  /** Sends one notice. */
  interface Send {
    NoticeClient.Answer send(String reason) throws IOException;
  }

  private final Path socket;
  private final Send send;
  private final Activity activity;
  private final Debounce debounce = new Debounce(CheckpointNotice.MIN_GAP);
  private final ExecutorService sender = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "donor-checkpoint-notice");
    t.setDaemon(true);
    return t;
  });

  CheckpointNotifier(Path socket, Send send, Activity activity) {
    this.socket = socket;
    this.send = send;
    this.activity = activity;
  }

  /** To the agent at {@code $CAIRN_AGENT_SOCKET}, else this user's standard one (as {@code cairn} finds it). */
  static CheckpointNotifier ofThisUser(Activity activity) {
    String env = System.getenv("CAIRN_AGENT_SOCKET");
    Path socket = env != null && !env.isBlank() ? Path.of(env) : AgentSocket.standard();
    return new CheckpointNotifier(socket, reason -> NoticeClient.notify(socket, reason), activity);
  }

  /** The owner came back ({@code why}): the agent's jobs are told to checkpoint, unless a notice went less than the gap ago. */
  void ownerBack(String why, long nanoTime) {
    if (!debounce.tryPass(nanoTime)) {
      LOG.debug("owner back ({}), but a checkpoint notice went out less than {} s ago", why, CheckpointNotice.MIN_GAP.toSeconds());
      return;
    }
    sender.execute(() -> send(why));
  }

  private void send(String why) {
    try {
      NoticeClient.Answer a = send.send("the donor's owner is back: " + why);
      LOG.info("told this user's agent at {} to have its jobs checkpoint ({}): {}", socket, why, a.out().isEmpty() ? a.err() : a.out());
      activity.add("owner back (" + why + "): this user's jobs told to checkpoint");
    } catch (IOException | RuntimeException e) {
      LOG.info("owner back ({}); no Cairn agent at {} to tell ({}): no job here checkpoints on notice", why, socket, e.getMessage());
    }
  }

  @Override
  public void close() {
    sender.shutdownNow();
  }
}
