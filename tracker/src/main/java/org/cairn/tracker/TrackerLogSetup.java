package org.cairn.tracker;

import ch.qos.logback.classic.Level;
import java.util.Map;
import org.cairn.core.log.DaemonLogSetup;

/**
 * The tracker's logging: stderr, CAIRN_LOG_LEVEL (INFO); Netty at WARN; in a tracker group Ratis at
 * WARN (it logs every configuration key and vote at INFO; TrackerMember logs leadership), and its
 * gRPC server at ERROR (every retry to a member that is down: the member's absence is logged by the
 * others once per election).
 */
public final class TrackerLogSetup extends DaemonLogSetup {
  public TrackerLogSetup() {
    super(Map.of("io.netty", Level.WARN, "org.apache.ratis", Level.WARN, "org.apache.ratis.grpc.server", Level.ERROR));
  }
}
