package org.cairn.cli.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.cairn.cli.agent.wire.CheckpointNotice;
import org.cairn.cli.agent.wire.NoticeClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Checkpoint notices over a real agent socket: every watching job gets one, a gone job is dropped, one per gap. */
class NoticeBoardTest {
  private static final long S = 1_000_000_000L;

  @TempDir
  Path dir;

  private final List<AutoCloseable> open = new java.util.ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close(); // the jobs first: their watches end, and the server has none left to wait for
    }
  }

  /** A job watching {@code socket} in a thread of its own; its notices arrive in the queue. */
  private NoticeClient.Watch watch(Path socket, String job, BlockingQueue<CheckpointNotice> got) throws IOException {
    NoticeClient.Watch w = NoticeClient.watch(socket, job);
    open.add(w);
    Thread t = new Thread(() -> {
      try {
        w.run(got::add);
      } catch (IOException ended) {
        // the connection closed
      }
    });
    t.setDaemon(true);
    t.start();
    return w;
  }

  private static void await(String what, java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + 10 * S;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 10 s: " + what);
      }
      Thread.sleep(20);
    }
  }

  private AgentServer serve(NoticeBoard board, AgentServer.Peers peers) throws IOException {
    AgentServer s = AgentServer.start(dir.resolve("agent.sock"), (req, out, err) -> 0, board::hold, peers);
    open.add(s);
    open.add(board);
    return s;
  }

  @Test
  void twoWatchingJobsBothGetANotice() throws Exception {
    NoticeBoard board = new NoticeBoard(CheckpointNotice.MIN_GAP);
    AgentServer server = serve(board, AgentServer.Peers.SAME_USER);
    BlockingQueue<CheckpointNotice> a = new LinkedBlockingQueue<>();
    BlockingQueue<CheckpointNotice> b = new LinkedBlockingQueue<>();
    watch(server.socket(), "sim.n0", a);
    watch(server.socket(), "sim.n1", b);
    assertThat(board.watching()).isEqualTo(2);

    NoticeBoard.Outcome o = board.notifyAll("the owner is using the computer", 0);
    assertThat(o.sent()).isTrue();
    assertThat(o.told()).containsExactlyInAnyOrder("sim.n0", "sim.n1");
    CheckpointNotice na = a.poll(10, TimeUnit.SECONDS);
    CheckpointNotice nb = b.poll(10, TimeUnit.SECONDS);
    assertThat(na).isNotNull().isEqualTo(nb);
    assertThat(na.seq()).isEqualTo(1);
    assertThat(na.reason()).isEqualTo("the owner is using the computer");
  }

  @Test
  void aJobThatIsGoneIsDroppedAndTheOthersStillHear() throws Exception {
    NoticeBoard board = new NoticeBoard(Duration.ZERO);
    AgentServer server = serve(board, AgentServer.Peers.SAME_USER);
    BlockingQueue<CheckpointNotice> live = new LinkedBlockingQueue<>();
    NoticeClient.Watch gone = watch(server.socket(), "sim.gone", new LinkedBlockingQueue<>());
    watch(server.socket(), "sim.live", live);
    gone.close();
    await("the gone job off the list", () -> board.watching() == 1);
    await("its connection's thread ended", () -> server.running() == 1);

    NoticeBoard.Outcome o = board.notifyAll("r", 0);
    assertThat(o.told()).containsExactly("sim.live");
    assertThat(live.poll(10, TimeUnit.SECONDS)).isNotNull();
  }

  @Test
  void aJobWhoseConnectionBreaksMidWriteIsDroppedAtTheFanOut() throws Exception {
    NoticeBoard board = new NoticeBoard(Duration.ZERO);
    java.io.DataOutputStream broken = new java.io.DataOutputStream(new java.io.OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw new IOException("Broken pipe");
      }
    });
    Thread holder = new Thread(() -> {
      try {
        board.hold("sim.broken", java.nio.channels.Channels.newChannel(new java.io.InputStream() {
          @Override
          public int read() throws IOException {
            try {
              Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return -1;
          }
        }), broken, () -> { });
      } catch (IOException expected) {
        // its subscription frame could not be written either
      }
    });
    holder.setDaemon(true);
    holder.start();
    holder.join(10_000);
    assertThat(board.watching()).as("a job that cannot be told it is subscribed is not kept").isZero();
    assertThat(board.notifyAll("r", 0).told()).isEmpty();
  }

  @Test
  void aSecondNoticeWithinTheGapIsNotSent() throws Exception {
    NoticeBoard board = new NoticeBoard(Duration.ofSeconds(60));
    AgentServer server = serve(board, AgentServer.Peers.SAME_USER);
    BlockingQueue<CheckpointNotice> got = new LinkedBlockingQueue<>();
    watch(server.socket(), "sim.n0", got);
    assertThat(board.notifyAll("flap 1", 100 * S).sent()).isTrue();
    NoticeBoard.Outcome flap = board.notifyAll("flap 2", 130 * S);
    assertThat(flap.sent()).isFalse();
    assertThat(flap.nextInSeconds()).isEqualTo(30);
    assertThat(board.notifyAll("flap 3", 159 * S).sent()).isFalse();
    NoticeBoard.Outcome later = board.notifyAll("a minute later", 160 * S);
    assertThat(later.sent()).isTrue();
    assertThat(later.seq()).isEqualTo(2);
    assertThat(got.poll(10, TimeUnit.SECONDS).reason()).isEqualTo("flap 1");
    assertThat(got.poll(10, TimeUnit.SECONDS).reason()).isEqualTo("a minute later");
    assertThat(got.poll(200, TimeUnit.MILLISECONDS)).isNull();
  }

  @Test
  void anotherUsersWatchIsRefusedAndNeverListed() throws Exception {
    NoticeBoard board = new NoticeBoard(Duration.ZERO);
    AgentServer server = serve(board, (peer, own) -> false);
    assertThatThrownBy(() -> NoticeClient.watch(server.socket(), "intruder")).isInstanceOf(IOException.class)
        .hasMessageContaining("did not take the watch").hasMessageContaining("serves another user");
    assertThat(board.watching()).isZero();
  }

  @Test
  void stoppingTheAgentEndsEveryWatch() throws Exception {
    NoticeBoard board = new NoticeBoard(Duration.ZERO);
    AgentServer server = serve(board, AgentServer.Peers.SAME_USER);
    NoticeClient.Watch w = NoticeClient.watch(server.socket(), "sim.n0");
    open.add(w);
    java.util.concurrent.CompletableFuture<Throwable> ended = new java.util.concurrent.CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        w.run(n -> { });
      } catch (IOException e) {
        ended.complete(e);
      }
    });
    t.setDaemon(true);
    t.start();
    board.close();
    assertThat(ended.get(10, TimeUnit.SECONDS)).isInstanceOf(IOException.class);
    await("the watch's connection thread ended", () -> server.running() == 0);
  }
}
