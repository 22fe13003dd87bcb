package org.cairn.cli.output;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import java.io.PrintStream;
import org.cairn.cli.startup.LogSetup;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * The log of one command an agent runs for a client: the lines the command logs at WARN and above (at DEBUG and above when
 * the client asked, {@code cairn -v ...}), on the thread that runs it and on the threads that thread starts (a store's
 * workers), go to that client's standard error, as a command run in the client's own process prints them; the agent's
 * own levels and log stay as they were (before, a client's {@code -v} turned the whole agent to DEBUG for good and showed
 * the client nothing, and a store's warnings, such as waiting for BUSY hosts, reached only the agent's log). Logback's
 * way: a turbo filter lets a verbose request's DEBUG events through whatever their loggers' levels, an appender writes
 * the request's events to the client, and the agent's own stderr appender drops what only the filter let through.
 * Installed with the agent's first command. The threads of a command's own pools ({@link org.cairn.core.log.CommandContext})
 * carry its log wherever they are started (a store's I/O pool gets work from the grid's event loops); lines logged on the
 * shared threads themselves (the event loops, the JDK HTTP client's) reach the agent's log only. A thread started during
 * the command that outlives it keeps a reference to this log, which is closed then and takes nothing more.
 */
public final class RequestLog implements AutoCloseable {
  private static final InheritableThreadLocal<RequestLog> CURRENT = new InheritableThreadLocal<>();
  private static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n";
  private static final org.cairn.core.log.CommandContext.Carrier<RequestLog> CARRIER =
      new org.cairn.core.log.CommandContext.Carrier<>() {
        @Override
        public RequestLog current() {
          return RequestLog.current();
        }

        @Override
        public void hold(RequestLog log) {
          CURRENT.set(log);
        }
      };
  /** Set once, by the first {@link #install}. */
  private static volatile PatternLayout layout;

  private final PrintStream err;
  private final RequestLog previous;
  private volatile boolean open = true;
  /** Whether the client asked for -v: DEBUG and above, else WARN and above. */
  private volatile boolean verbose;

  private RequestLog(PrintStream err, RequestLog previous, boolean verbose) {
    this.err = err;
    this.previous = previous;
    this.verbose = verbose;
  }

  /**
   * Sends what this thread (and the threads it starts) logs at WARN and above, or DEBUG and above when {@code verbose}, to
   * {@code err} until {@link #close}; null when logging is not logback's (a configuration file that chose another
   * backend: nothing to route).
   */
  public static RequestLog begin(PrintStream err, boolean verbose) {
    if (!install()) {
      return null;
    }
    RequestLog log = new RequestLog(err, CURRENT.get(), verbose);
    CURRENT.set(log);
    return log;
  }

  /** From now on DEBUG and above (the client's -v, seen after the log began). */
  public void verbose() {
    verbose = true;
  }

  @Override
  public void close() {
    open = false;
    if (CURRENT.get() == this) {
      CURRENT.set(previous != null && previous.open ? previous : null);
    }
  }

  /** The open log of the calling thread's command, or null. */
  private static RequestLog current() {
    RequestLog log = CURRENT.get();
    return log != null && log.open ? log : null;
  }

  private static synchronized boolean install() {
    if (layout != null) {
      return true;
    }
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return false;
    }
    PatternLayout p = new PatternLayout();
    p.setContext(context);
    p.setPattern(PATTERN);
    p.start();
    // a command's own pools start threads where the grid's event loops hand them work: those carry the log too
    org.cairn.core.log.CommandContext.register(CARRIER);
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    Appender<ILoggingEvent> own = root.getAppender("STDERR");
    if (own != null) {
      OnlyAtLoggerLevel filter = new OnlyAtLoggerLevel(context);
      filter.start();
      own.addFilter(filter);
    }
    ToClient toClient = new ToClient();
    toClient.setContext(context);
    toClient.setName("REQUEST");
    toClient.start();
    root.addAppender(toClient);
    TurboFilter debug = new DebugOnRequest();
    debug.setContext(context);
    debug.start();
    context.addTurboFilter(debug);
    layout = p;
    return true;
  }

  /** DEBUG and above, whatever the logger's level, on a thread whose command a client runs with -v (Netty's excepted). */
  private static final class DebugOnRequest extends TurboFilter {
    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
      if (level == null || !level.isGreaterOrEqual(Level.DEBUG)) {
        return FilterReply.NEUTRAL;
      }
      RequestLog log = current();
      return log != null && log.verbose && !logger.getName().startsWith(LogSetup.NETTY) ? FilterReply.ACCEPT : FilterReply.NEUTRAL;
    }
  }

  /** Writes the calling thread's command's events to its client (the client's PrintStream orders concurrent lines). */
  private static final class ToClient extends UnsynchronizedAppenderBase<ILoggingEvent> {
    @Override
    protected void append(ILoggingEvent event) {
      RequestLog log = current(); // appenders run on the thread that logs
      if (log != null && (log.verbose || event.getLevel().isGreaterOrEqual(Level.WARN))) {
        log.err.print(layout.doLayout(event));
        log.err.flush();
      }
    }
  }

  /** The agent's own log: only what its loggers' levels let through, not what a client's -v did. */
  private static final class OnlyAtLoggerLevel extends Filter<ILoggingEvent> {
    private final LoggerContext context;

    OnlyAtLoggerLevel(LoggerContext context) {
      this.context = context;
    }

    @Override
    public FilterReply decide(ILoggingEvent event) {
      Level at = context.getLogger(event.getLoggerName()).getEffectiveLevel();
      return event.getLevel().isGreaterOrEqual(at) ? FilterReply.NEUTRAL : FilterReply.DENY;
    }
  }
}
