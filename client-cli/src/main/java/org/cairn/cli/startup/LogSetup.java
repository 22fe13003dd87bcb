package org.cairn.cli.startup;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.List;
import org.cairn.cli.agent.wire.Argv;
import org.cairn.core.log.DaemonLogSetup;

/**
 * The CLI's logging, set up in code (logback finds it through {@code META-INF/services}): everything
 * goes to stderr, so stdout stays clean for data and JSON output; the root logs at WARN, and the
 * daemons' loggers at INFO (the agent's log says what it ran, resumed and failed; {@code cairn mount}'s
 * what it stored, deleted and refused); {@code CAIRN_LOG_LEVEL} (a system property or the environment)
 * sets them all but Netty's, which stays at WARN as in the daemons (its DEBUG is a dump of every setting
 * it read, and a stack trace of a file it could not classify: noise in {@code cairn -v}). It replaces a
 * logback.xml, whose XML parsing took ~0.1 s of every one-command start (docs/benchmarks/journal.md, "A cold
 * store's start"). With {@code -Dlogback.configurationFile=F} logback reads F instead, as usual.
 */
public final class LogSetup extends ContextAwareBase implements Configurator {
  /** Loggers of the long-running commands, which say what they do at INFO. */
  static final List<String> DAEMONS = List.of("org.cairn.cli.agent", "org.cairn.client.mount", "org.cairn.cli.startup.Warmup");
  /** Libraries kept at a fixed level whatever CAIRN_LOG_LEVEL says. */
  public static final String NETTY = "io.netty";

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    String set = DaemonLogSetup.level();
    Logger root = DaemonLogSetup.rootOnStderr(context, "%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n");
    root.setLevel(Level.toLevel(set, Level.WARN));
    for (String name : DAEMONS) {
      context.getLogger(name).setLevel(Level.toLevel(set, Level.INFO));
    }
    context.getLogger(NETTY).setLevel(Level.WARN);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /**
   * {@code -v} in {@code args} ({@code --verbose}, or {@code -v} among other one-letter flags, as {@code -qv}; before
   * {@code --}) sets CAIRN_LOG_LEVEL to DEBUG unless it asks for more already. Called before logging starts: a
   * command's first log calls and picocli's parse race with logging's start on another thread ({@link Preload}), and
   * setting the level only when picocli saw the flag missed the command's lines in some runs. Returns whether it found
   * -v.
   */
  public static boolean debugIfVerbose(String[] args) {
    if (!Argv.verboseIn(args)) {
      return false;
    }
    String set = DaemonLogSetup.level();
    if (set == null || Level.toLevel(set, Level.WARN).isGreaterOrEqual(Level.INFO)) {
      System.setProperty("CAIRN_LOG_LEVEL", "DEBUG");
    }
    return true;
  }
}
