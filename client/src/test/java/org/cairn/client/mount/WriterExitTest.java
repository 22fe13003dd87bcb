package org.cairn.client.mount;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WriterExitTest {
  /** /proc/PID/stat with state, flags (field 9) and exit_code (field 52) set; the command name has a space and a ')'. */
  private static String stat(String state, long flags, int exitCode) {
    StringBuilder s = new StringBuilder("4242 (dd (x) y) ").append(state);
    for (int field = 4; field <= 52; field++) {
      s.append(' ').append(field == 9 ? flags : field == 52 ? exitCode : 0);
    }
    return s.append('\n').toString();
  }

  @Test
  void aTaskKilledBySignalOrFailingIsDyingAndOneExitingCleanlyOrAliveIsNot() {
    assertThat(WriterExit.failedFromStat(stat("R", 0x400000, 0))).as("alive").isNull();
    assertThat(WriterExit.failedFromStat(stat("R", 0x400004, 9))).isEqualTo("its writer was killed by signal 9");
    assertThat(WriterExit.failedFromStat(stat("R", 0x400004, 3 << 8))).isEqualTo("its writer exited with status 3 without closing it");
    assertThat(WriterExit.failedFromStat(stat("R", 0x400004, 0))).as("exit(0) without a close commits").isNull();
  }

  @Test
  void thisProcessIsAliveAndHoldsNoMountFile() {
    long self = ProcessHandle.current().pid();
    assertThat(WriterExit.failed(self)).isNull();
    assertThat(WriterExit.stillOpen(self, "/no/such/mount/file")).isFalse();
  }
}
