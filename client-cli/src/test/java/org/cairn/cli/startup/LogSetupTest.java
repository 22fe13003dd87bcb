package org.cairn.cli.startup;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.core.ConsoleAppender;
import org.cairn.cli.agent.wire.Argv;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LogSetupTest {
  @AfterEach
  void clear() {
    System.clearProperty("CAIRN_LOG_LEVEL");
    System.clearProperty("logback.configurationFile");
  }

  @Test
  void rootWarnsOnStderr_theDaemonsSayWhatTheyDo() {
    LoggerContext context = configured();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    assertThat(root.getLevel()).isEqualTo(Level.WARN);
    assertThat(((ConsoleAppender<?>) root.getAppender("STDERR")).getTarget()).isEqualTo("System.err");
    assertThat(context.getLogger("org.cairn.cli.agent.AgentServer").getEffectiveLevel()).isEqualTo(Level.INFO);
    assertThat(context.getLogger("org.cairn.client.mount.CairnFs").getEffectiveLevel()).isEqualTo(Level.INFO);
    assertThat(context.getLogger("org.cairn.client.store.StoreCommit").getEffectiveLevel()).isEqualTo(Level.WARN);
    assertThat(context.getLogger("io.netty.util.NetUtil").isInfoEnabled()).isFalse();
  }

  @Test
  void cairnLogLevel_setsEveryLoggerButNetty() {
    System.setProperty("CAIRN_LOG_LEVEL", "DEBUG");
    LoggerContext context = configured();
    assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.DEBUG);
    assertThat(context.getLogger("org.cairn.cli.startup.Warmup").getEffectiveLevel()).isEqualTo(Level.DEBUG);
    assertThat(context.getLogger("org.cairn.client.store.StoreCommit").isDebugEnabled()).isTrue();
    assertThat(context.getLogger("io.netty.util.internal.PlatformDependent").isInfoEnabled()).isFalse();
    assertThat(context.getLogger("io.netty.util.internal.PlatformDependent").isWarnEnabled()).isTrue();
  }

  @Test
  void verbose_isReadFromTheArguments_beforeLoggingStarts() {
    assertThat(Argv.verboseIn(new String[] {"-v", "store", "f"})).isTrue();
    assertThat(Argv.verboseIn(new String[] {"store", "f", "--verbose"})).isTrue();
    assertThat(Argv.verboseIn(new String[] {"-qv", "versions"})).isTrue();
    assertThat(Argv.verboseIn(new String[] {"-V"})).isFalse();
    assertThat(Argv.verboseIn(new String[] {"--version"})).isFalse();
    assertThat(Argv.verboseIn(new String[] {"store", "--", "-v"})).isFalse();
    assertThat(LogSetup.debugIfVerbose(new String[] {"store", "f"})).isFalse();
    assertThat(System.getProperty("CAIRN_LOG_LEVEL")).isNull();
    assertThat(LogSetup.debugIfVerbose(new String[] {"-v", "store", "f"})).isTrue();
    assertThat(System.getProperty("CAIRN_LOG_LEVEL")).isEqualTo("DEBUG");
    System.setProperty("CAIRN_LOG_LEVEL", "TRACE");
    LogSetup.debugIfVerbose(new String[] {"-v", "store", "f"});
    assertThat(System.getProperty("CAIRN_LOG_LEVEL")).as("-v does not lower a finer level").isEqualTo("TRACE");
  }

  @Test
  void aConfigurationFile_isLeftToLogback() {
    System.setProperty("logback.configurationFile", "/nonexistent/logback.xml");
    LoggerContext context = new LoggerContext();
    LogSetup setup = new LogSetup();
    setup.setContext(context);
    assertThat(setup.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
    assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR")).isNull();
  }

  private static LoggerContext configured() {
    LoggerContext context = new LoggerContext();
    LogSetup setup = new LogSetup();
    setup.setContext(context);
    assertThat(setup.configure(context)).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
    return context;
  }
}
