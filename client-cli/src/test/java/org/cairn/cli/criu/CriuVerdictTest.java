package org.cairn.cli.criu;

import static org.assertj.core.api.Assertions.assertThat;

import org.cairn.cli.criu.CriuVerdict.Action;
import org.junit.jupiter.api.Test;

class CriuVerdictTest {
  private static final String DUMPED = String.join("\n",
      "(00.000012) Version: 4.2 (gitid v4.2-22-g2cf8f13ca)",
      "(00.051234) Writing stats",
      "(00.051300) Dumping finished successfully", "");

  @Test
  void aDumpSucceedsOnlyWithExitZeroAndItsLogsSuccessLine() {
    assertThat(CriuVerdict.of(Action.DUMP, 0, DUMPED).ok()).isTrue();
    assertThat(CriuVerdict.of(Action.DUMP, 1, DUMPED).ok()).as("a success line then a failing exit").isFalse();
    assertThat(CriuVerdict.of(Action.DUMP, 0, "(00.01) Writing stats\n").ok()).as("exit 0 without the line").isFalse();
    assertThat(CriuVerdict.of(Action.DUMP, 0, null).ok()).as("exit 0 and no log at all").isFalse();
  }

  @Test
  void aRestoreNeedsTheRestoreLineNotTheDumpOne() {
    assertThat(CriuVerdict.of(Action.RESTORE, 0, DUMPED).ok()).isFalse();
    assertThat(CriuVerdict.of(Action.RESTORE, 0, "(00.3) Restore finished successfully. Tasks resumed.\n").ok()).isTrue();
  }

  @Test
  void aFailureQuotesTheLastErrorLinesOfTheLog() {
    String log = String.join("\n",
        "(00.001) Error (criu/cr-dump.c:2055): first",
        "(00.002) Error (criu/seize.c:100): second",
        "(00.003) Warn  (criu/kerndat.c:1290): not an error",
        "(00.004) Error (criu/seize.c:200): third",
        "(00.005) Error (criu/cr-dump.c:2100): Dumping FAILED.", "");
    CriuVerdict v = CriuVerdict.of(Action.DUMP, 1, log);
    assertThat(v.ok()).isFalse();
    assertThat(v.reason()).isEqualTo("CRIU exited 1: second; third; Dumping FAILED.");
  }

  @Test
  void aSilentFailureSaysWhatWasMissing() {
    assertThat(CriuVerdict.of(Action.DUMP, 0, "").reason())
        .isEqualTo("CRIU exited 0 but its log does not say 'Dumping finished successfully'");
    assertThat(CriuVerdict.of(Action.RESTORE, 137, null).reason()).isEqualTo("CRIU exited 137");
  }
}
