package org.cairn.core.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;

/**
 * A daemon's logging (the peer's, the tracker's), set up in code: logback finds a subclass through
 * {@code META-INF/services} and runs it instead of parsing a logback.xml, whose XML parsing was
 * ~0.2 CPU-s of every daemon start. Everything goes to stderr with a timestamp, level, thread and
 * logger; the root logs at {@code CAIRN_LOG_LEVEL} (a system property or the environment; INFO by
 * default); libraries that are chatty at INFO get the fixed levels the subclass names. With {@code
 * -Dlogback.configurationFile=F} logback reads F instead, as usual.
 */
public abstract class DaemonLogSetup extends ContextAwareBase implements Configurator {
  static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] %logger{20} - %msg%n";

  private final Map<String, Level> fixed;

  /** @param fixed loggers (libraries) kept at these levels whatever CAIRN_LOG_LEVEL says */
  protected DaemonLogSetup(Map<String, Level> fixed) {
    this.fixed = Map.copyOf(fixed);
  }

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    Logger root = rootOnStderr(context, PATTERN);
    root.setLevel(Level.toLevel(level(), Level.INFO));
    fixed.forEach((name, level) -> context.getLogger(name).setLevel(level));
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /** {@code CAIRN_LOG_LEVEL}: a system property, else the environment; null if neither. */
  public static String level() {
    return System.getProperty("CAIRN_LOG_LEVEL", System.getenv("CAIRN_LOG_LEVEL"));
  }

  /** Gives the context's root logger an appender "STDERR" that writes {@code pattern} to stderr; returns the root. */
  public static Logger rootOnStderr(LoggerContext context, String pattern) {
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("STDERR");
    stderr.setTarget("System.err");
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(pattern);
    encoder.start();
    stderr.setEncoder(encoder);
    stderr.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.addAppender(stderr);
    return root;
  }
}
