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
    long dev = ((Number) Files.getAttribute(dir, "unix:dev")).longValue();
    int major = (int) (((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfff));
    int minor = (int) ((dev & 0xff) | ((dev >>> 12) & ~0xff));
    Path stats = dir.resolve("diskstats");
    write(stats, major, minor, 1000);
    DiskLoad load = new DiskLoad(dir, stats);
    assertThat(load.available()).isTrue();
    assertThat(load.device()).isEqualTo(major + ":" + minor);
    assertThat(load.sample(10_000)).isZero();
    write(stats, major, minor, 1600); // 600 ms of I/O in 1000 ms
    assertThat(load.sample(11_000)).isCloseTo(0.6, within(1e-12));
    write(stats, major, minor, 9999); // more ticks than time: capped
    assertThat(load.sample(11_500)).isEqualTo(1.0);
  }

  @Test
  void diskLoad_isUnavailableWithoutTheDevice() throws IOException {
    Path stats = Files.writeString(dir.resolve("diskstats"), "   8       0 sda 1 2 3 4 5 6 7 8 9 10 11\n");
    assertThat(new DiskLoad(dir, stats).available()).isFalse();
    assertThat(new DiskLoad(dir, dir.resolve("missing")).sample(1)).isZero();
  }

  private static void write(Path stats, int major, int minor, long ioTicks) throws IOException {
    Files.writeString(stats, String.format("   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0%n %4d %7d dev 10 0 20 30 40 0 50 60 0 %d 90%n",
        major, minor, ioTicks));
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
