package org.cairn.core;

import java.io.IOException;

/**
 * Stored or received bytes failed verification: a bad checksum, a truncated fragment, a chunk whose
 * content id does not match, a payload that does not decompress. Callers treat the source as bad
 * and read the data elsewhere; the bytes are never passed on.
 */
public class CorruptDataException extends IOException {
  private static final long serialVersionUID = 1L;

  public CorruptDataException(String message) {
    super(message);
  }

  public CorruptDataException(String message, Throwable cause) {
    super(message, cause);
  }
}
