package org.cairn.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class RequestLogTest {
  private static final Logger LOG = LoggerFactory.getLogger("org.cairn.client.RequestLogTestSubject");
  private Level rootLevel;

  /** An agent's own levels (root at WARN), whatever a test that ran a command with -v in this JVM left behind. */
  @BeforeEach
  void agentLevels() {
    ch.qos.logback.classic.Logger root = ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(Logger.ROOT_LOGGER_NAME);
    rootLevel = root.getLevel();
    root.setLevel(Level.WARN);
  }

  @AfterEach
  void restoreLevels() {
    ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(Logger.ROOT_LOGGER_NAME).setLevel(rootLevel);
  }

  @Test
  void aVerboseRequestsLines_goToItsClient_notToTheAgentsLog_andEndWithIt() throws Exception {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    Level rootBefore = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getLevel();
    assertThat(LOG.isDebugEnabled()).as("the agent's own level").isFalse();
    ExecutorService startedBefore = Executors.newSingleThreadExecutor();
    startedBefore.submit(() -> { }).get(); // its thread exists before the request begins
    ByteArrayOutputStream client = new ByteArrayOutputStream();
    ByteArrayOutputStream agentLog = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    System.setErr(new PrintStream(agentLog, true, StandardCharsets.UTF_8)); // the agent's STDERR appender writes to System.err
    try {
      try (RequestLog log = RequestLog.begin(new PrintStream(client, true, StandardCharsets.UTF_8), true)) {
        assertThat(log).isNotNull();
        assertThat(LOG.isDebugEnabled()).as("on the request's thread").isTrue();
        LOG.debug("on the request's thread");
        Thread worker = new Thread(() -> LOG.debug("on a thread the request started"));
        worker.start();
        worker.join();
        startedBefore.submit(() -> LOG.debug("on a thread of another command")).get();
        LoggerFactory.getLogger("io.netty.util.NetUtil").debug("a library's setting");
        LOG.warn("a warning of the request");
      }
      LOG.debug("after the request");
      assertThat(LOG.isDebugEnabled()).as("after the request").isFalse();
    } finally {
      System.setErr(stderr);
      startedBefore.shutdownNow();
    }
    String toClient = client.toString(StandardCharsets.UTF_8);
    assertThat(toClient).contains("DEBUG", "on the request's thread", "on a thread the request started", "WARN", "a warning of the request")
        .doesNotContain("another command", "after the request", "a library's setting");
    String own = agentLog.toString(StandardCharsets.UTF_8);
    assertThat(own).contains("a warning of the request").doesNotContain("DEBUG", "on the request's thread");
    assertThat(context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(rootBefore);
  }

  @Test
  void aRequestWithoutVerbose_givesItsClientItsWarningsOnly() throws Exception {
    ByteArrayOutputStream client = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    ByteArrayOutputStream agentLog = new ByteArrayOutputStream();
    System.setErr(new PrintStream(agentLog, true, StandardCharsets.UTF_8));
    Logger daemon = LoggerFactory.getLogger("org.cairn.cli.agent.RequestLogTestSubject"); // the agent's loggers log at INFO
    try {
      try (RequestLog log = RequestLog.begin(new PrintStream(client, true, StandardCharsets.UTF_8), false)) {
        assertThat(LOG.isDebugEnabled()).isFalse();
        LOG.debug("a debug line");
        daemon.info("the agent ran something");
        Thread worker = new Thread(() -> LOG.warn("a store's worker warns"));
        worker.start();
        worker.join();
        LOG.error("the request failed");
        log.verbose(); // -v, seen after the log began
        LOG.debug("now verbose");
      }
    } finally {
      System.setErr(stderr);
    }
    assertThat(client.toString(StandardCharsets.UTF_8)).contains("a store's worker warns", "the request failed", "now verbose")
        .doesNotContain("a debug line", "the agent ran something");
    assertThat(agentLog.toString(StandardCharsets.UTF_8)).contains("the agent ran something", "a store's worker warns")
        .doesNotContain("now verbose");
  }

  @Test
  void theGridsSharedIoThreads_doNotCarryTheLogOfTheCommandThatStartedThem() throws Exception {
    ByteArrayOutputStream client = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    try (RequestLog log = RequestLog.begin(new PrintStream(client, true, StandardCharsets.UTF_8), true);
        org.cairn.client.Grid grid = org.cairn.client.Grid.open(java.util.List.of(java.net.URI.create("http://127.0.0.1:9")),
            org.cairn.core.security.GridToken.of("0123456789abcdef0123456789abcdef"), java.time.Duration.ofSeconds(1))) {
      LOG.warn("the command's own line");
      // the event loop's thread starts now, from this command's thread; another command's work runs on it later
      grid.group().submit(() -> LOG.warn("another command's line on a shared thread")).get();
    } finally {
      System.setErr(stderr);
    }
    assertThat(client.toString(StandardCharsets.UTF_8)).contains("the command's own line").doesNotContain("shared thread");
  }

  @Test
  void aCommandsPoolThreads_carryItsLog_evenWhenASharedThreadStartsThem() throws Exception {
    ByteArrayOutputStream client = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    ExecutorService shared = Executors.newSingleThreadExecutor(); // an event loop: started before, belongs to no command
    shared.submit(() -> { }).get();
    ExecutorService carrying = null;
    ExecutorService plain = null;
    try {
      try (RequestLog log = RequestLog.begin(new PrintStream(client, true, StandardCharsets.UTF_8), false)) {
        assertThat(log).isNotNull();
        // made on the command's thread, as a store makes its I/O pool; their threads start on the shared thread
        carrying = Executors.newCachedThreadPool(org.cairn.core.log.CommandContext.threads("cmd-io"));
        plain = Executors.newCachedThreadPool();
        ExecutorService c = carrying;
        ExecutorService p = plain;
        shared.submit(() -> c.submit(() -> LOG.warn("host h1 failed; a pool thread of the command warns")).get()).get();
        shared.submit(() -> p.submit(() -> LOG.warn("a thread that carries nothing warns")).get()).get();
      }
      carrying.submit(() -> LOG.warn("after the command, on its pool's thread")).get();
    } finally {
      System.setErr(stderr);
      shared.shutdownNow();
      if (carrying != null) {
        carrying.shutdownNow();
      }
      if (plain != null) {
        plain.shutdownNow();
      }
    }
    assertThat(client.toString(StandardCharsets.UTF_8)).contains("a pool thread of the command warns")
        .doesNotContain("carries nothing", "after the command");
  }
}
