package org.cairn.gui.boinc;

/** A BOINC preference file that cannot be used, with one sentence naming the file and what is wrong with it. */
public final class BoincPrefsException extends Exception {
  private static final long serialVersionUID = 1L;

  public BoincPrefsException(String message, Throwable cause) {
    super(message, cause);
  }

  public BoincPrefsException(String message) {
    super(message);
  }
}
