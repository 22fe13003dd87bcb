package org.cairn.gui.boinc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Reading BOINC's preference files: the real package's and client's (test resources, see boinc/README.md), and hostile ones. */
class BoincPrefsReaderTest {
  @TempDir
  Path dir;

  static Path resource(String name) throws Exception {
    return Path.of(BoincPrefsReaderTest.class.getResource("/boinc/" + name).toURI());
  }

  private void write(String name, String xml) throws Exception {
    Files.writeString(dir.resolve(name), xml, StandardCharsets.UTF_8);
  }

  @Test
  void theOverrideFileTheDebianPackageInstallsLeavesBoincsDefaults() throws Exception {
    assertThat(BoincPrefsReader.read(resource("debian-package"))).contains(BoincPrefs.defaults());
  }

  @Test
  void theDefaultsAreTheOnesTheRealClientWorksWith() throws Exception {
    assertThat(BoincPrefsReader.read(resource("client-defaults"))).contains(BoincPrefs.defaults());
  }

  @Test
  void anOverrideTheClientWroteForBoincManagerIsReadWithItsDayPrefs() throws Exception {
    BoincPrefs p = BoincPrefsReader.read(resource("manager-override")).orElseThrow();
    assertThat(p.netHours()).isEqualTo(new BoincPrefs.Hours(22.5, 6));
    assertThat(p.dayNetHours()).isEqualTo(Map.of(DayOfWeek.SUNDAY, new BoincPrefs.Hours(0, 0),
        DayOfWeek.SATURDAY, new BoincPrefs.Hours(9, 13.25)));
    assertThat(p.diskMaxUsedGb()).isEqualTo(20);
    assertThat(p.diskMaxUsedPct()).isEqualTo(10);
    assertThat(p.diskMinFreeGb()).isEqualTo(5);
    assertThat(p.maxBytesSecUp()).isEqualTo(102400);
    assertThat(p.maxBytesSecDown()).isEqualTo(512000);
    assertThat(p.dailyXferLimitMb()).isEqualTo(3000);
    assertThat(p.dailyXferPeriodDays()).isEqualTo(3);
    assertThat(p.runIfUserActive()).isFalse();
    assertThat(p.idleTimeToRun()).isEqualTo(5);
    assertThat(p.suspendCpuUsage()).isEqualTo(50);
  }

  @Test
  void theOverrideWinsSettingBySettingOverTheProjectsPreferences() throws Exception {
    Files.copy(resource("client-defaults").resolve("global_prefs.xml"), dir.resolve(BoincPrefsReader.GLOBAL));
    write(BoincPrefsReader.OVERRIDE, "<global_preferences><disk_max_used_gb>7</disk_max_used_gb></global_preferences>");
    BoincPrefs p = BoincPrefsReader.read(dir).orElseThrow();
    assertThat(p.diskMaxUsedGb()).isEqualTo(7);
    assertThat(p.diskMaxUsedPct()).as("from global_prefs.xml").isEqualTo(90);
  }

  @Test
  void aDayWithOnlyComputingHoursKeepsTheEveryDayNetworkWindow() throws Exception {
    BoincPrefs p = BoincPrefsReader.parse(("<global_preferences><day_prefs><day_of_week>3</day_of_week><start_hour>8</start_hour>"
        + "<end_hour>9</end_hour></day_prefs><day_prefs><day_of_week>1</day_of_week><net_end_hour>7</net_end_hour></day_prefs>"
        + "<run_if_user_active/></global_preferences>").getBytes(StandardCharsets.UTF_8), "f");
    assertThat(p.dayNetHours()).as("BOINC's start left out is 0").isEqualTo(Map.of(DayOfWeek.MONDAY, new BoincPrefs.Hours(0, 7)));
    assertThat(p.runIfUserActive()).as("an empty element is true, as BOINC reads it").isTrue();
  }

  @Test
  void noFilesAreNoPreferences() throws Exception {
    assertThat(BoincPrefsReader.read(dir)).isEmpty();
  }

  @Test
  @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // fails, not hangs, if the parser expands
  void anExternalEntityCannotReadAnotherFile() throws Exception {
    Path secret = dir.resolve("secret");
    Files.writeString(secret, "12345");
    write(BoincPrefsReader.OVERRIDE, "<?xml version=\"1.0\"?><!DOCTYPE global_preferences [<!ENTITY x SYSTEM \"" + secret.toUri()
        + "\">]><global_preferences><disk_max_used_gb>&x;</disk_max_used_gb></global_preferences>");
    assertThatThrownBy(() -> BoincPrefsReader.read(dir)).isInstanceOf(BoincPrefsException.class)
        .hasMessageContaining(BoincPrefsReader.OVERRIDE).hasMessageContaining("DOCTYPE").message().doesNotContain("12345");
  }

  @Test
  @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // fails, not hangs, if the parser expands
  void aBillionLaughsIsRefusedBeforeAnyExpansion() throws Exception {
    StringBuilder dtd = new StringBuilder("<!DOCTYPE global_preferences [<!ENTITY l0 \"lol\">");
    for (int i = 1; i < 10; i++) {
      dtd.append("<!ENTITY l").append(i).append(" \"").append(("&l" + (i - 1) + ";").repeat(10)).append("\">");
    }
    write(BoincPrefsReader.GLOBAL, dtd + "]><global_preferences><source_project>&l9;</source_project></global_preferences>");
    assertThatThrownBy(() -> BoincPrefsReader.read(dir)).isInstanceOf(BoincPrefsException.class).hasMessageContaining("DOCTYPE");
  }

  @Test
  void anExternalDtdIsNotFetched() throws Exception {
    write(BoincPrefsReader.OVERRIDE, "<!DOCTYPE global_preferences SYSTEM \"http://127.0.0.1:9/prefs.dtd\"><global_preferences/>");
    assertThatThrownBy(() -> BoincPrefsReader.read(dir)).isInstanceOf(BoincPrefsException.class).hasMessageContaining("DOCTYPE");
  }

  @Test
  void aFileAboveOneMebibyteIsNotRead() throws Exception {
    write(BoincPrefsReader.GLOBAL, "<global_preferences>" + "<x>1</x>".repeat(200_000) + "</global_preferences>");
    assertThatThrownBy(() -> BoincPrefsReader.read(dir)).hasMessageContaining("larger than 1 MiB");
  }

  @Test
  void eachOutOfRangeOrNonNumericValueIsNamedWithItsFile() {
    assertThat(problem("<disk_max_used_gb>-1</disk_max_used_gb>")).contains("f: disk_max_used_gb must be between 0 and").contains("-1");
    assertThat(problem("<disk_max_used_gb>1e400</disk_max_used_gb>")).contains("disk_max_used_gb must be between");
    assertThat(problem("<max_bytes_sec_up>99999999999999999999</max_bytes_sec_up>")).contains("max_bytes_sec_up must be between");
    assertThat(problem("<disk_max_used_pct>101</disk_max_used_pct>")).contains("disk_max_used_pct must be between 0 and 100");
    assertThat(problem("<net_start_hour>25</net_start_hour>")).contains("net_start_hour must be between 0 and 24");
    assertThat(problem("<idle_time_to_run>NaN</idle_time_to_run>")).contains("idle_time_to_run must be a number, was 'NaN'");
    assertThat(problem("<daily_xfer_limit_mb>0x10p3</daily_xfer_limit_mb>")).contains("must be a number");
    assertThat(problem("<suspend_cpu_usage>Infinity</suspend_cpu_usage>")).contains("must be a number");
    assertThat(problem("<run_if_user_active>yes</run_if_user_active>")).contains("run_if_user_active must be 0 or 1");
    assertThat(problem("<day_prefs><day_of_week>7</day_of_week></day_prefs>")).contains("day_of_week must be between 0 and 6");
    assertThat(problem("<day_prefs><net_start_hour>1</net_start_hour></day_prefs>")).contains("without its day_of_week");
    assertThat(problem("<disk_max_used_gb>" + "9".repeat(100_000) + "</disk_max_used_gb>")).contains("must be a number")
        .hasSizeLessThan(200);
  }

  @Test
  void malformedXmlOrAnotherDocumentIsRefused() {
    assertThatThrownBy(() -> BoincPrefsReader.parse("<global_preferences><disk_max_used_gb>1".getBytes(StandardCharsets.UTF_8), "f"))
        .hasMessageContaining("f is not well-formed");
    assertThatThrownBy(() -> BoincPrefsReader.parse("<cc_config/>".getBytes(StandardCharsets.UTF_8), "f"))
        .hasMessageContaining("not <global_preferences>");
    assertThatThrownBy(() -> BoincPrefsReader.parse(new byte[0], "f")).hasMessageContaining("f is not well-formed");
  }

  @Test
  void aVenuesPreferencesAreNotTakenForTheTopLevelOnes() throws Exception {
    BoincPrefs p = BoincPrefsReader.parse(("<global_preferences><disk_max_used_gb>3</disk_max_used_gb><venue name=\"home\">"
        + "<disk_max_used_gb>50</disk_max_used_gb></venue></global_preferences>").getBytes(StandardCharsets.UTF_8), "f");
    assertThat(p.diskMaxUsedGb()).isEqualTo(3);
  }

  private static String problem(String inner) {
    try {
      BoincPrefsReader.parse(("<global_preferences>" + inner + "</global_preferences>").getBytes(StandardCharsets.UTF_8), "f");
      return "read without a problem";
    } catch (BoincPrefsException e) {
      return e.getMessage();
    }
  }
}
