package org.cairn.sim.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class ProcessCpuTest {
  @Test
  void readsUserAndSystemTicksAfterACommandWithSpacesAndParentheses() {
    String stat = "1234 (java (my) app) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 30 0 100 0 0";
    assertThat(ProcessCpu.utimePlusStime(stat)).isEqualTo(300);
  }

  @Test
  void thisProcessUsesCpuWhileItWorks() throws IOException {
    ProcessCpu cpu = new ProcessCpu(ProcessHandle.current().pid());
    cpu.start();
    long end = System.nanoTime() + 300_000_000L;
    long x = 0;
    while (System.nanoTime() < end) {
      x += Long.numberOfTrailingZeros(x + System.nanoTime());
    }
    assertThat(x).isNotNegative();
    assertThat(cpu.percentSinceStart()).isPositive();
  }

  @Test
  void aWindowsCostPerEventIsItsCpuOverTheEvents_andThereIsNoneWithoutEvents() {
    ProcessCpu.Window w = new ProcessCpu.Window(6.3, 60);
    assertThat(w.percent()).isEqualTo(10.5);
    assertThat(w.millisPer(30_000)).as("6.3 CPU-s over 30,000 heartbeats").isEqualTo(0.21);
    assertThat(w.millisPer(0)).isNull();
    assertThat(new ProcessCpu.Window(1, 0).percent()).isZero();
  }

  @Test
  void aProcessThatIsNotThereIsAnErrorNamingIt() {
    ProcessCpu cpu = new ProcessCpu(Integer.MAX_VALUE);
    assertThatThrownBy(cpu::start).isInstanceOf(IOException.class).hasMessageContaining(Integer.toString(Integer.MAX_VALUE));
  }
}
