package org.cairn.peer;

import ch.qos.logback.classic.Level;
import java.util.Map;
import org.cairn.core.log.DaemonLogSetup;

/** The peer's logging: stderr, CAIRN_LOG_LEVEL (INFO); Netty at WARN. */
public final class PeerLogSetup extends DaemonLogSetup {
  public PeerLogSetup() {
    super(Map.of("io.netty", Level.WARN));
  }
}
