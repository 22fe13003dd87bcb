package org.cairn.cli.agent;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.cairn.cli.agent.wire.AgentRequest;
import org.cairn.cli.agent.wire.AgentWire;
import org.cairn.cli.agent.wire.CheckpointNotice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's Unix socket: accepts thin clients, reads each one's request and runs it with
 * {@link Runner}, its output framed back. Each connection has its own thread, so two jobs' stores
 * run at once. The agent runs commands with its user's keys and token, so only that user may talk
 * to it: the socket is bound inside a fresh 0700 directory, made 0600 there (no other user can
 * reach it meanwhile) and linked to its path, and every connection's peer user
 * ({@code SO_PEERCRED}) must be the agent's own; any other is refused with a logged line.
 */
public final class AgentServer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(AgentServer.class);
  private static final Set<PosixFilePermission> PRIVATE_DIR = PosixFilePermissions.fromString("rwx------");

  /** Runs one command; what it writes to {@code out}/{@code err} reaches the client as it is written. */
  public interface Runner {
    int run(AgentRequest request, OutputStream out, OutputStream err) throws Exception;
  }

  /**
   * Thrown by a {@link Runner} before it writes anything, for a command this agent will not run (a replaced jar, a
   * client whose settings it cannot honour): the connection is closed unanswered, so the client runs the command in
   * its own process, as with no agent.
   */
  public static final class Declined extends Exception {
    public Declined(String why) {
      super(why);
    }
  }

  /**
   * Takes a connection whose request is a watch ({@link CheckpointNotice#isWatch}): holds it, sending checkpoint
   * notices on {@code wire}, until the job goes; the connection is then closed. {@code in} is the channel itself, not
   * a stream over it: a blocking read through {@code Channels.newInputStream} holds the channel's lock, which a
   * notice written meanwhile through {@code Channels.newOutputStream} would wait for.
   */
  public interface Watches {
    void hold(String job, java.nio.channels.ReadableByteChannel in, DataOutputStream wire, Closeable connection) throws IOException;
  }

  /** Who may use the agent, given the peer of a connection and the agent's own user. */
  public interface Peers {
    boolean allowed(UserPrincipal peer, UserPrincipal own);

    /** The agent's own user only. */
    Peers SAME_USER = (peer, own) -> peer.equals(own);
  }

  private final Path socket;
  private final ServerSocketChannel server;
  private final ExecutorService workers;
  private final Thread acceptor;
  private final Peers peers;
  private final UserPrincipal own;
  private final Watches watches;
  private final AtomicInteger running = new AtomicInteger();
  private volatile boolean closed;

  private AgentServer(Path socket, ServerSocketChannel server, Runner runner, Watches watches, Peers peers, UserPrincipal own) {
    this.socket = socket;
    this.watches = watches;
    this.server = server;
    this.peers = peers;
    this.own = own;
    AtomicInteger n = new AtomicInteger();
    this.workers = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "agent-request-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.acceptor = new Thread(() -> accept(runner), "agent-accept");
    acceptor.setDaemon(true);
  }

  /**
   * Binds {@code socket} for this user only. A socket file left by an agent that died is replaced; one
   * that answers means another agent is running there, and this one refuses to start.
   */
  public static AgentServer start(Path socket, Runner runner) throws IOException {
    return start(socket, runner, null, Peers.SAME_USER);
  }

  /** As {@link #start(Path, Runner)}, with watches taken by {@code watches} (null: a watch is a command like any). */
  public static AgentServer start(Path socket, Runner runner, Watches watches) throws IOException {
    return start(socket, runner, watches, Peers.SAME_USER);
  }

  /** As {@link #start(Path, Runner)}, with connections let in by {@code peers}. */
  static AgentServer start(Path socket, Runner runner, Peers peers) throws IOException {
    return start(socket, runner, null, peers);
  }

  /** As {@link #start(Path, Runner, Watches)}, with connections let in by {@code peers}. */
  static AgentServer start(Path socket, Runner runner, Watches watches, Peers peers) throws IOException {
    Path abs = socket.toAbsolutePath();
    Path dir = abs.getParent();
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PRIVATE_DIR));
    }
    if (Files.exists(abs, LinkOption.NOFOLLOW_LINKS)) {
      try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
        probe.connect(UnixDomainSocketAddress.of(abs));
        throw new IOException("another agent is already serving " + socket);
      } catch (java.net.SocketException e) {
        LOG.info("replacing the stale socket {} (no agent answers on it)", socket);
        Files.delete(abs);
      }
    }
    Path bindDir = privateDir(dir);
    Path bound = bindDir.resolve("s");
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    boolean ok = false;
    try {
      UserPrincipal own = Files.getOwner(bindDir);
      server.bind(UnixDomainSocketAddress.of(bound));
      Files.setPosixFilePermissions(bound, PosixFilePermissions.fromString("rw-------"));
      try {
        Files.createLink(abs, bound); // the socket appears at its path already 0600; never replaces one
      } catch (java.nio.file.FileAlreadyExistsException e) {
        throw new IOException("another agent is already serving " + socket, e);
      }
      AgentServer s = new AgentServer(abs, server, runner, watches, peers, own);
      s.acceptor.start();
      ok = true;
      return s;
    } finally {
      Files.deleteIfExists(bound);
      Files.deleteIfExists(bindDir);
      if (!ok) {
        server.close();
      }
    }
  }

  /** A fresh 0700 directory in {@code dir}, short-named so the socket path inside it stays short. */
  private static Path privateDir(Path dir) throws IOException {
    java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
    for (int attempt = 0; ; attempt++) {
      Path p = dir.resolve(".a" + Integer.toString(random.nextInt(36 * 36 * 36 * 36), 36));
      try {
        return Files.createDirectory(p, PosixFilePermissions.asFileAttribute(PRIVATE_DIR));
      } catch (java.nio.file.FileAlreadyExistsException e) {
        if (attempt > 100) {
          throw e;
        }
      }
    }
  }

  public Path socket() {
    return socket;
  }

  /** Commands being run now. */
  public int running() {
    return running.get();
  }

  private void accept(Runner runner) {
    while (!closed) {
      SocketChannel ch;
      try {
        ch = server.accept();
      } catch (IOException e) {
        if (!closed) {
          LOG.error("agent socket {} failed; no more commands are taken", socket, e);
        }
        return;
      }
      try {
        workers.execute(() -> {
          if (admitted(ch)) {
            serve(ch, runner);
          }
        });
      } catch (java.util.concurrent.RejectedExecutionException stopping) {
        // accepted as the agent closed: the client sees its connection end and runs the command itself
        try {
          ch.close();
        } catch (IOException ignored) {
          // nothing more to tell it
        }
        return;
      }
    }
  }

  /** Whether the connection's peer may use this agent; one that may not is told so and closed. */
  private boolean admitted(SocketChannel ch) {
    String who;
    try {
      UnixDomainPrincipal peer = ch.getOption(ExtendedSocketOptions.SO_PEERCRED);
      if (peers.allowed(peer.user(), own)) {
        return true;
      }
      who = "user " + peer.user().getName();
    } catch (IOException | UnsupportedOperationException e) {
      who = "a peer whose user cannot be read (" + e.getMessage() + ")";
    }
    LOG.warn("refused a connection on {} from {}: this agent serves {} only", socket, who, own.getName());
    try (ch) {
      DataOutputStream wire = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(ch), 512));
      new AgentWire.FrameStream(wire, AgentWire.ERR).write(
          ("cairn agent: this agent serves another user\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
      AgentWire.exit(wire, 2);
    } catch (IOException ignored) {
      // a refused peer that does not read its refusal
    }
    return false;
  }

  private void serve(SocketChannel ch, Runner runner) {
    running.incrementAndGet();
    try (ch) {
      DataInputStream in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(ch)));
      DataOutputStream wire = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(ch), 64 << 10));
      AgentRequest request;
      try {
        request = AgentRequest.read(in);
      } catch (IOException e) {
        LOG.warn("refused a request on {}: {}", socket, e.getMessage());
        OutputStream err = new AgentWire.FrameStream(wire, AgentWire.ERR);
        err.write(("cairn agent: " + e.getMessage() + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        AgentWire.exit(wire, 2);
        return;
      }
      if (watches != null && CheckpointNotice.isWatch(request)) {
        try {
          watches.hold(request.args().get(2), ch, wire, ch);
        } catch (IOException e) {
          LOG.debug("a watch ended: {}", e.toString()); // the job went, or the agent is stopping
        }
        return;
      }
      long start = System.nanoTime();
      int code;
      OutputStream out = new AgentWire.FrameStream(wire, AgentWire.OUT);
      OutputStream err = new AgentWire.FrameStream(wire, AgentWire.ERR);
      try {
        code = runner.run(request, out, err);
      } catch (Declined d) {
        LOG.info("declined {} ({}): the client runs it itself", summary(request), d.getMessage());
        return;
      } catch (Exception e) {
        LOG.error("a request failed in the agent", e);
        err.write(("cairn agent: " + e + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        code = 1;
      }
      out.flush();
      AgentWire.exit(wire, code);
      LOG.info("ran {} for a client in {} ms: exit {}", summary(request), (System.nanoTime() - start) / 1_000_000, code);
    } catch (IOException e) {
      LOG.info("a client left before its answer was sent: {}", e.getMessage());
    } finally {
      running.decrementAndGet();
    }
  }

  /** The command line without values that could be secrets (none are expected, but a log never shows them). */
  private static String summary(AgentRequest r) {
    StringBuilder b = new StringBuilder();
    for (String a : r.args()) {
      if (a.startsWith("--token")) {
        b.append(a, 0, a.contains("=") ? a.indexOf('=') : a.length()).append(" ... ");
        break;
      }
      b.append(a).append(' ');
    }
    return b.toString().trim();
  }

  /** Stops taking commands and removes the socket; commands running get {@code grace} to finish. */
  public void close(java.time.Duration grace) {
    closed = true;
    try {
      server.close();
    } catch (IOException e) {
      LOG.warn("closing {}: {}", socket, e.getMessage());
    }
    try {
      Files.deleteIfExists(socket);
    } catch (IOException e) {
      LOG.warn("removing {}: {}", socket, e.getMessage());
    }
    workers.shutdown();
    try {
      workers.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    close(java.time.Duration.ofSeconds(5));
  }
}
