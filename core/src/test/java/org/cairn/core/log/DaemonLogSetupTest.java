package org.cairn.core.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.core.ConsoleAppender;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DaemonLogSetupTest {
  private static final class Quiet extends DaemonLogSetup {
    Quiet() {
      super(Map.of("io.netty", Level.WARN, "org.apache.ratis.grpc", Level.ERROR));
    }
  }

  @AfterEach
  void clear() {
    System.clearProperty("CAIRN_LOG_LEVEL");
    System.clearProperty("logback.configurationFile");
  }

  @Test
  void infoOnStderr_theNamedLibrariesQuieter() {
    LoggerContext context = configured();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    assertThat(root.getLevel()).isEqualTo(Level.INFO);
    assertThat(((ConsoleAppender<?>) root.getAppender("STDERR")).getTarget()).isEqualTo("System.err");
    assertThat(context.getLogger("org.cairn.peer.PeerDaemon").isInfoEnabled()).isTrue();
    assertThat(context.getLogger("io.netty.util.NetUtil").isInfoEnabled()).isFalse();
    assertThat(context.getLogger("io.netty.util.NetUtil").isWarnEnabled()).isTrue();
    assertThat(context.getLogger("org.apache.ratis.grpc.server.X").isWarnEnabled()).isFalse();
  }

  @Test
  void cairnLogLevel_setsTheRoot_notTheFixedLibraries() {
    System.setProperty("CAIRN_LOG_LEVEL", "DEBUG");
    LoggerContext context = configured();
    assertThat(context.getLogger("org.cairn.tracker.Tracker").isDebugEnabled()).isTrue();
    assertThat(context.getLogger("io.netty.buffer.X").isInfoEnabled()).isFalse();
  }

  @Test
  void aConfigurationFile_isLeftToLogback() {
    System.setProperty("logback.configurationFile", "/nonexistent/logback.xml");
    LoggerContext context = new LoggerContext();
    Quiet setup = new Quiet();
    setup.setContext(context);
    assertThat(setup.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
    assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR")).isNull();
  }

  private static LoggerContext configured() {
    LoggerContext context = new LoggerContext();
    Quiet setup = new Quiet();
    setup.setContext(context);
    assertThat(setup.configure(context)).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
    return context;
  }
}
