package org.cairn.cli.condor;

import java.util.Locale;

/**
 * Why a file's transfer failed, in the terms of HTCondor's {@code TransferErrorData}
 * (docs/apis/file-transfer-plugins/transfer_error_data.rst): the {@link Kind} decides whether HTCondor may retry.
 *
 * @param kind the error type
 * @param message the one line the job's submitter reads ({@code TransferError})
 * @param code the {@code cairn} command's exit code, or 0 when none ran
 */
record Failure(Kind kind, String message, int code) {
  /** {@code ErrorType}s, each with its {@code Retryable}: -1 never, 0 may be retried. */
  enum Kind {
    /** The request cannot be done as given: a bad URL or local file name, no grid configured. */
    PARAMETER("Parameter", -1),
    /** The tracker (or the peers) could not be reached. */
    CONTACT("Contact", 0),
    /** The grid refused the token. */
    AUTHORIZATION("Authorization", -1),
    /** The grid answered that there is no such version. */
    SPECIFICATION("Specification", -1),
    /** The transfer started and failed. */
    TRANSFER("Transfer", 0);

    final String type;
    final int retryable;

    Kind(String type, int retryable) {
      this.type = type;
      this.retryable = retryable;
    }
  }

  /** A failure before any command ran. */
  static Failure parameter(String message) {
    return new Failure(Kind.PARAMETER, message, 0);
  }

  /** What a {@code cairn} command's exit code and last error line say went wrong. */
  static Failure of(CommandRunner.Result r) {
    String line = lastLine(r.err());
    if (line.isEmpty()) {
      line = "cairn exited with " + r.code();
    }
    String m = withoutAddresses(line.toLowerCase(Locale.ROOT));
    Kind kind;
    if (r.code() == 2 || m.contains("no tracker") || m.contains("no grid token") || m.contains("token file")) {
      kind = Kind.PARAMETER; // a usage error: no grid named, a token file that is not there
    } else if (STATUS_401_403.matcher(m).find() || m.contains("unauthori") || m.contains("forbidden")
        || m.contains("token") && (m.contains("refused") || m.contains("invalid") || m.contains("wrong"))) {
      kind = Kind.AUTHORIZATION;
    } else if (m.contains("no committed version") || m.contains("no such version") || m.contains("no version") || m.contains("not found") || STATUS_404.matcher(m).find()) {
      kind = Kind.SPECIFICATION;
    } else if (m.contains("connect") || m.contains("unreachable") || m.contains("timed out") || m.contains("no route")
        || m.contains("unresolved") || m.contains("cannot reach") || m.contains("could not reach")) {
      kind = Kind.CONTACT;
    } else {
      kind = Kind.TRANSFER;
    }
    return new Failure(kind, line, r.code());
  }

  private static final java.util.regex.Pattern ADDRESS =
      java.util.regex.Pattern.compile("[a-z][a-z0-9+.-]*://\\S+|\\d{1,3}(\\.\\d{1,3}){3}(:\\d+)?|\\[[0-9a-f:]+](:\\d+)?|:\\d{2,5}\\b");
  private static final java.util.regex.Pattern STATUS_401_403 = java.util.regex.Pattern.compile("\\b40[13]\\b");
  private static final java.util.regex.Pattern STATUS_404 = java.util.regex.Pattern.compile("\\b404\\b");

  /** The line without URLs, IP addresses and ports: a tracker on port 43401 is not an HTTP 401. */
  static String withoutAddresses(String line) {
    return ADDRESS.matcher(line).replaceAll("<address>");
  }

  private static String lastLine(String text) {
    String[] lines = text.strip().split("\r?\n");
    for (int i = lines.length - 1; i >= 0; i--) {
      String l = lines[i].strip();
      if (!l.isEmpty() && !l.startsWith("Try '")) {
        return l;
      }
    }
    return "";
  }
}
