package org.cairn.peer.load;

import java.nio.file.Path;
import java.util.function.LongSupplier;
import org.cairn.core.availability.HostState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How loaded this host is, for the state a peer heartbeats (FALCON's running / loaded / busy): the
 * owner's I/O on the data directory's device ({@link DiskLoad}), or where that device cannot be
 * watched the peer's own I/O against a capacity ({@link OwnIoLoad}), smoothed through the tau1/tau2
 * thresholds and the client count ({@link LoadStateMachine}).
 */
public final class HostLoad {
  private static final Logger LOG = LoggerFactory.getLogger(HostLoad.class);

  private final DiskLoad disk;
  private final OwnIoLoad ownIo;
  private final LoadStateMachine load;

  public HostLoad(DiskLoad disk, OwnIoLoad ownIo, LoadStateMachine load) {
    this.disk = disk;
    this.ownIo = ownIo;
    this.load = load;
  }

  /** The monitor a peer with these settings uses; logs which. */
  public static HostLoad forPeer(Path dataDir, LongSupplier ownIoBytes, double ioCapacity, double tau1, double tau2, int maxClients) {
    DiskLoad disk = DiskLoad.forDataDir(dataDir);
    if (!disk.available()) {
      LOG.info("load monitor: the data directory is not on a block device in /proc/diskstats; using the peer's own I/O "
          + "rate against a capacity of {} bytes/s (raised to the highest rate seen)", ioCapacity);
    } else {
      LOG.info("load monitor: watching device {} for {} (the peer's own I/O is not counted as load)", disk.device(), dataDir);
    }
    return new HostLoad(disk, new OwnIoLoad(ownIoBytes, ioCapacity), new LoadStateMachine(tau1, tau2, maxClients, 0.3));
  }

  /** Takes one sample (each heartbeat). */
  public void observe(long nowMillis) {
    load.observe(disk.available() ? disk.sample(nowMillis) : ownIo.sample(nowMillis));
  }

  /** The state for the smoothed load with {@code activeClients} writers. */
  public HostState state(int activeClients) {
    return load.state(activeClients);
  }

  /** Why the state is what it is, for the log line of a transition. */
  public String describe() {
    if (disk.available()) {
      return String.format("owner's disk load %d%% (smoothed %d%%), device busy %d%% with Cairn's own I/O",
          Math.round(disk.lastExternal() * 100), Math.round(load.load() * 100), Math.round(disk.lastBusy() * 100));
    }
    return String.format("load %d%% (smoothed)", Math.round(load.load() * 100));
  }
}
