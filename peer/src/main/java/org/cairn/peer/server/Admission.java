package org.cairn.peer.server;

import org.cairn.core.protocol.Refusal;

/** Whether the peer takes new fragments now (state, pause, quota, disk), and who is writing. */
public interface Admission {
  /** Null if {@code bytes} more may be stored now, else why not. */
  Refusal admit(long bytes);

  /** A connection started writing (counts towards MAX_CLIENTS / FULL). */
  void writerStarted();

  void writerFinished();

  /** Bytes of fragments sent to readers (the donor's upload). */
  default void served(long bytes) {}

  /** Lets everything in (tests). */
  Admission OPEN = new Admission() {
    @Override
    public Refusal admit(long bytes) {
      return null;
    }

    @Override
    public void writerStarted() {}

    @Override
    public void writerFinished() {}
  };
}
