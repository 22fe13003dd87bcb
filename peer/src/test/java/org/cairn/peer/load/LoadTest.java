package org.cairn.peer.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.cairn.core.availability.HostState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadTest {
  @TempDir
  Path dir;

  @Test
  void stateMachine_followsThresholdsAndClients() {
    LoadStateMachine m = new LoadStateMachine(0.5, 0.8, 8, 1.0); // no smoothing
    m.observe(0.1);
    assertThat(m.state(0)).isEqualTo(HostState.RUNNING);
    assertThat(m.state(8)).isEqualTo(HostState.FULL);
    m.observe(0.5);
    assertThat(m.state(0)).isEqualTo(HostState.LOADED);
    m.observe(0.79);
    assertThat(m.state(8)).as("load wins over clients").isEqualTo(HostState.LOADED);
    m.observe(0.8);
    assertThat(m.state(0)).isEqualTo(HostState.BUSY);
  }

  @Test
  void stateMachine_smoothsBursts() {
    LoadStateMachine m = new LoadStateMachine(0.5, 0.8, 8, 0.3);
    m.observe(0.0);
    m.observe(1.0); // one busy second
    assertThat(m.load()).isCloseTo(0.3, within(1e-12));
    assertThat(m.state(0)).isEqualTo(HostState.RUNNING);
    for (int i = 0; i < 10; i++) {
      m.observe(1.0);
    }
    assertThat(m.state(0)).isEqualTo(HostState.BUSY);
    assertThatThrownBy(() -> new LoadStateMachine(0.9, 0.8, 8, 0.3)).hasMessageContaining("tau1=0.9 tau2=0.8");
  }

  @Test
  void diskLoad_readsIoTicksOfTheDataDevice() throws IOException {
    int[] mm = majorMinor();
    Path stats = dir.resolve("diskstats");
    write(stats, mm, 1000, 0);
    DiskLoad load = new DiskLoad(dir, stats, () -> -1);
    assertThat(load.available()).isTrue();
    assertThat(load.device()).isEqualTo(mm[0] + ":" + mm[1]);
    assertThat(load.sample(10_000)).isZero();
    write(stats, mm, 1600, 1000); // 600 ms of I/O in 1000 ms
    assertThat(load.sample(11_000)).isCloseTo(0.6, within(1e-12));
    write(stats, mm, 9999, 2000); // more ticks than time: capped
    assertThat(load.sample(11_500)).isEqualTo(1.0);
  }

  @Test
  void diskLoad_doesNotCountThePeersOwnIo() throws IOException {
    int[] mm = majorMinor();
    Path stats = dir.resolve("diskstats");
    long[] own = {5_000_000};
    write(stats, mm, 0, 0);
    DiskLoad load = new DiskLoad(dir, stats, () -> own[0]);
    load.sample(0);
    // the device was busy 900 ms moving 100 000 sectors (51.2 MB), all of them the peer's
    write(stats, mm, 900, 100_000);
    own[0] += 100_000 * 512L;
    assertThat(load.sample(1000)).isZero();
    assertThat(load.lastBusy()).isCloseTo(0.9, within(1e-12));
    // busy 800 ms, a quarter of the bytes the peer's: the owner's share is 600 ms
    write(stats, mm, 1700, 200_000);
    own[0] += 25_000 * 512L;
    assertThat(load.sample(2000)).isCloseTo(0.6, within(1e-12));
    // none of the peer's: all of it the owner's
    write(stats, mm, 2200, 300_000);
    assertThat(load.sample(3000)).isCloseTo(0.5, within(1e-12));
    assertThat(load.lastExternal()).isCloseTo(0.5, within(1e-12));
  }

  @Test
  void diskLoad_matchesThePeersWritesToTheDeviceWhenTheDiskCatchesUp() throws IOException {
    // the peer dirties 40 MB in one second; a 20 MB/s disk writes them over the next two
    int[] mm = majorMinor();
    Path stats = dir.resolve("diskstats");
    long[] own = {0};
    write(stats, mm, 0, 0);
    DiskLoad load = new DiskLoad(dir, stats, () -> own[0]);
    load.sample(0);
    long mb20 = 20_000_000 / 512;
    own[0] += 40_000_000;
    write(stats, mm, 1000, mb20);
    assertThat(load.sample(1000)).isZero();
    write(stats, mm, 2000, 2 * mb20);
    assertThat(load.sample(2000)).as("still the peer's bytes").isZero();
    // then the owner writes 20 MB: the peer's backlog is paid off, this is the owner's
    write(stats, mm, 3000, 3 * mb20);
    assertThat(load.sample(3000)).isCloseTo(1.0, within(0.01));
  }

  @Test
  void diskLoad_forgetsPeerBytesThatNeverReachTheDevice() throws IOException {
    int[] mm = majorMinor();
    Path stats = dir.resolve("diskstats");
    long[] own = {0};
    write(stats, mm, 0, 0);
    DiskLoad load = new DiskLoad(dir, stats, () -> own[0]);
    load.sample(0);
    own[0] += 500_000_000; // dirtied, overwritten, never written out
    write(stats, mm, 0, 0);
    load.sample(1000);
    long t = 1000;
    long ticks = 0;
    long sectors = 0;
    for (int i = 0; i < DiskLoad.BACKLOG_SAMPLES; i++) {
      t += 1000;
      write(stats, mm, ticks, sectors);
      load.sample(t);
    }
    // BACKLOG_SAMPLES seconds later the owner's I/O counts in full again
    t += 1000;
    ticks += 500;
    sectors += 10_000;
    write(stats, mm, ticks, sectors);
    assertThat(load.sample(t)).isCloseTo(0.5, within(1e-9));
  }

  @Test
  void ownerShare_isClampedAndBusyWithoutBytesIsTheOwners() {
    assertThat(DiskLoad.ownerShare(0, 0)).isEqualTo(1.0);
    assertThat(DiskLoad.ownerShare(1000, 2000)).as("page-cache timing can make the peer's count larger").isZero();
    assertThat(DiskLoad.ownerShare(1000, -5)).isEqualTo(1.0);
    assertThat(DiskLoad.ownerShare(1000, 250)).isCloseTo(0.75, within(1e-12));
  }

  @Test
  void processIo_sumsStorageBytesLessCancelledWrites() throws IOException {
    Path io = Files.writeString(dir.resolve("io"), "rchar: 99\nwchar: 98\nsyscr: 1\nsyscw: 2\nread_bytes: 4096\n"
        + "write_bytes: 10000\ncancelled_write_bytes: 1000\n");
    assertThat(new ProcessIo(io).getAsLong()).isEqualTo(13_096);
    assertThat(new ProcessIo(dir.resolve("missing")).getAsLong()).isEqualTo(-1);
    Files.writeString(io, "rchar: 1\n");
    assertThat(new ProcessIo(io).getAsLong()).as("no task I/O accounting").isEqualTo(-1);
    if (Files.isReadable(Path.of("/proc/self/io"))) {
      assertThat(ProcessIo.self().getAsLong()).isNotNegative();
    }
  }

  @Test
  void diskLoad_isUnavailableWithoutTheDevice() throws IOException {
    Path stats = Files.writeString(dir.resolve("diskstats"), "   8       0 sda 1 2 3 4 5 6 7 8 9 10 11\n");
    assertThat(new DiskLoad(dir, stats, () -> -1).available()).isFalse();
    assertThat(new DiskLoad(dir, dir.resolve("missing"), () -> -1).sample(1)).isZero();
  }

  private int[] majorMinor() throws IOException {
    long dev = ((Number) Files.getAttribute(dir, "unix:dev")).longValue();
    return new int[] {(int) (((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfff)), (int) ((dev & 0xff) | ((dev >>> 12) & ~0xff))};
  }

  /** A diskstats line for the device: sectors are split between reads (field 6) and writes (field 10). */
  private static void write(Path stats, int[] mm, long ioTicks, long sectors) throws IOException {
    long read = sectors / 4;
    Files.writeString(stats, String.format("   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0%n %4d %7d dev 10 0 %d 30 40 0 %d 60 0 %d 90%n",
        mm[0], mm[1], read, sectors - read, ioTicks));
  }

  @Test
  void ownIoLoad_isRateOverCapacityAndLearnsTheCapacity() {
    long[] bytes = {0};
    OwnIoLoad load = new OwnIoLoad(() -> bytes[0], 100e6);
    assertThat(load.sample(0)).isZero();
    bytes[0] += 50_000_000; // 50 MB in one second against 100 MB/s
    assertThat(load.sample(1000)).isCloseTo(0.5, within(1e-12));
    bytes[0] += 200_000_000; // the disk did 200 MB/s: that is its capacity now
    assertThat(load.sample(2000)).isEqualTo(1.0);
    assertThat(load.capacity()).isEqualTo(200e6);
    bytes[0] += 100_000_000;
    assertThat(load.sample(3000)).isCloseTo(0.5, within(1e-12));
  }
}
