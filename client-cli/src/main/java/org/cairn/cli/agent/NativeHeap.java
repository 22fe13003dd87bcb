package org.cairn.cli.agent;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives the C heap's freed memory back to the system, as {@code jcmd PID System.trim_native_heap} does (glibc's
 * {@code malloc_trim}): after a burst of stores an idle agent's malloc arenas keep ~20 MB that nothing uses (freed
 * direct buffers, the compilers' arenas), which the JVM's own heap shrinking does not touch. Measured with
 * {@code it/tools/agent-idle.sh}; figures in docs/performance.md, Known limits ("The self-started agent's memory when idle").
 */
final class NativeHeap {
  private static final Logger LOG = LoggerFactory.getLogger(NativeHeap.class);

  private NativeHeap() {}

  /** Trims the C heap where the JVM can (JDK 17.0.9 and later on glibc); elsewhere, does nothing and says so at debug. */
  static void trim() {
    try {
      Object said = ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
          "systemTrimNativeHeap", new Object[] {new String[0]}, new String[] {String[].class.getName()});
      LOG.debug("idle: {}", String.valueOf(said).strip());
    } catch (JMException | RuntimeException e) {
      LOG.debug("idle: the C heap could not be trimmed here: {}", e.toString());
    }
  }
}
