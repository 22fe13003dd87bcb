package org.cairn.cli.criu;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a CRIU run succeeded, from its exit status and its log (written at -v3): a run succeeded only if CRIU exited
 * 0 and its log carries the line CRIU writes once the whole action is done. Either alone is not enough: a wrapper or
 * a half-initialised CRIU can exit 0 without having dumped anything, and a dump can log progress and still fail.
 */
record CriuVerdict(boolean ok, String reason) {
  /** What CRIU was asked to do, and the log line it writes when that finished. */
  enum Action {
    DUMP("Dumping finished successfully"),
    RESTORE("Restore finished successfully");

    final String successLine;

    Action(String successLine) {
      this.successLine = successLine;
    }
  }

  /** How many of the log's error lines a failure quotes. */
  static final int QUOTED_ERRORS = 3;

  /** The verdict on a run of {@code action} that exited with {@code exit} and wrote {@code log} (null: no log). */
  static CriuVerdict of(Action action, int exit, String log) {
    String text = log == null ? "" : log;
    boolean reported = text.lines().anyMatch(l -> l.contains(action.successLine));
    if (exit == 0 && reported) {
      return new CriuVerdict(true, "");
    }
    String errors = String.join("; ", errorLines(text));
    String status = exit == 0 ? "CRIU exited 0 but its log does not say '" + action.successLine + "'" : "CRIU exited " + exit;
    return new CriuVerdict(false, errors.isEmpty() ? status : status + ": " + errors);
  }

  /** The last few error lines of a CRIU log ({@code (time) Error (file:line): message}), the message part only. */
  static List<String> errorLines(String log) {
    List<String> errors = new ArrayList<>();
    for (String l : (Iterable<String>) log.lines()::iterator) {
      int at = l.indexOf("Error (");
      if (at >= 0) {
        int close = l.indexOf("):", at);
        errors.add((close >= 0 ? l.substring(close + 2) : l.substring(at)).strip());
      }
    }
    return errors.subList(Math.max(0, errors.size() - QUOTED_ERRORS), errors.size());
  }
}
