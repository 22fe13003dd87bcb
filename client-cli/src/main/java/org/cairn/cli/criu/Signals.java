package org.cairn.cli.criu;

/** POSIX signals to this JVM handled by a task (the JDK's sun.misc.Signal: there is no public API for them). */
final class Signals {
  private Signals() {}

  /** Runs {@code task} on each {@code name} signal (USR1, TERM) instead of the JVM's default for it. */
  @SuppressWarnings("removal")
  static void on(String name, Runnable task) {
    sun.misc.Signal.handle(new sun.misc.Signal(name), s -> task.run());
  }
}
