package org.cairn.gui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DonorSettingsTest {
  @TempDir
  Path dir;

  private DonorSettings valid() {
    return new DonorSettings(java.util.Map.of()).with("tracker", "http://127.0.0.1:7600").with("token-file", dir.resolve("t").toString())
        .with("data", dir.resolve("data").toString()).with("quota", "2GiB").with("listen", "0.0.0.0:7700");
  }

  @Test
  void savedSettingsReadBackWithTheTokenInItsOwnPrivateFile() throws Exception {
    Path file = dir.resolve("donor.yaml");
    DonorSettings s = valid().with(DonorSettings.HOURS, "22:00-06:00").with(DonorSettings.BUSY_CPU, "0.5");
    s.save(file, " ctk1_secret \n");
    DonorSettings back = DonorSettings.load(file);
    assertThat(back.values()).isEqualTo(s.values());
    assertThat(back.token()).isEqualTo("ctk1_secret");
    assertThat(Files.readString(file)).doesNotContain("ctk1_secret");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("t")))).isEqualTo("rw-------");
    DonorRules.Settings rules = back.rules(DonorRules.Settings.parse(0.8, "60s", "", ""));
    assertThat(rules.busyCpu()).isEqualTo(0.5);
    assertThat(rules.from()).isEqualTo(LocalTime.of(22, 0));
    assertThat(rules.busyAfter().toSeconds()).as("the command line's where the file is silent").isEqualTo(60);
  }

  @Test
  void eachBadValueIsNamedBeforeAnythingIsSaved() {
    assertThat(valid().problem()).isNull();
    assertThat(valid().with("tracker", "tracker.example").problem()).contains("http://");
    assertThat(valid().with("quota", "lots").problem()).contains("'lots'");
    assertThat(valid().with("listen", "nowhere").problem()).contains("'nowhere'");
    assertThat(valid().with(DonorSettings.HOURS, "9-5").problem()).contains("08:00-18:00");
    assertThat(valid().with("data", "").problem()).contains("data directory");
    assertThat(valid().with(BoincAdoption.DIR, dir.resolve("no-boinc").toString()).problem()).contains("BOINC directory")
        .contains("no-boinc");
    assertThat(valid().with(BoincAdoption.DIR, dir.toString()).problem()).isNull();
    assertThat(valid().with("upload-cap", "fast").problem()).contains("'fast'");
    assertThat(valid().with(DonorSettings.HOURS, "sat 09:00-13:00, someday 10:00-11:00").problem()).contains("someday");
  }

  @Test
  void onlyWhereThePeerConnectsOrKeepsItsDataNeedsARestart() {
    DonorSettings before = valid();
    assertThat(before.with("quota", "9GiB").with(DonorSettings.HOURS, "08:00-18:00").needsRestart(before, "a", "a")).isFalse();
    assertThat(before.with("tracker", "http://elsewhere:7600").needsRestart(before, "a", "a")).isTrue();
    assertThat(before.needsRestart(before, "a", "b")).as("a new token").isTrue();
  }

  @Test
  void theSettingsBecomeThePeersConfigWithTheRulesLeftOut() throws Exception {
    Files.writeString(dir.resolve("t"), org.cairn.core.security.GridToken.generate() + "\n");
    Path file = dir.resolve("donor.yaml");
    DonorSettings s = valid().with("bandwidth-cap", "2MiB").with("advertise", "donor.example").with(DonorSettings.HOURS, "08:00-18:00")
        .with(DonorSettings.BUSY_CPU, "0.5");
    org.cairn.peer.PeerConfig c = s.peerConfig(file);
    assertThat(c.tracker().toString()).isEqualTo("http://127.0.0.1:7600");
    assertThat(c.dataDir()).isEqualTo(dir.resolve("data"));
    assertThat(c.quotaBytes()).isEqualTo(2L << 30);
    assertThat(c.listen().toString()).isEqualTo("0.0.0.0:7700");
    assertThat(c.advertise()).isEqualTo("donor.example");
    assertThat(c.bandwidthCap()).isEqualTo(2L << 20);
    assertThat(c.heartbeatInterval().toSeconds()).as("the peer's default where the file is silent").isEqualTo(5);
    s.save(file, Files.readString(dir.resolve("t")));
    assertThat(DonorSettings.load(file).peerConfig(file).quotaBytes()).as("read back from the file").isEqualTo(2L << 30);
  }

  @Test
  void settingsThePeerCannotRunWithAreNamedWithTheFile() throws Exception {
    Path file = dir.resolve("donor.yaml");
    assertThatThrownBy(() -> valid().peerConfig(file)).hasMessageContaining("token file not found");
    Files.writeString(dir.resolve("t"), org.cairn.core.security.GridToken.generate() + "\n");
    assertThatThrownBy(() -> valid().with("quota", "0").peerConfig(file)).hasMessageContaining("quota must be positive, was 0");
    assertThatThrownBy(() -> valid().with("colour", "blue").peerConfig(file)).hasMessageContaining("unknown setting 'colour' in " + file);
    assertThatThrownBy(() -> valid().with("tracker", "").peerConfig(file)).hasMessageContaining("missing required settings: --tracker");
  }

  @Test
  void aNewQuotaIsSetInTheFileKeepingEverythingElse() throws Exception {
    Path file = dir.resolve("donor.yaml");
    valid().with(DonorSettings.HOURS, "22:00-06:00").save(file, "ctk1_secret");
    DonorSettings.setKey(file, "quota", Long.toString(5L << 30));
    DonorSettings back = DonorSettings.load(file);
    assertThat(back.get("quota")).isEqualTo(Long.toString(5L << 30));
    assertThat(back.values()).isEqualTo(valid().with(DonorSettings.HOURS, "22:00-06:00").with("quota", Long.toString(5L << 30)).values());
  }

  @Test
  void aMissingFileIsNoSettings() throws Exception {
    assertThat(DonorSettings.load(dir.resolve("none.yaml")).values()).isEmpty();
    assertThat(DonorSettings.load(dir.resolve("none.yaml")).token()).isEmpty();
  }

  @Test
  void aConnectionCheckWithoutATokenOrTrackerSaysWhatIsWrong() {
    assertThat(ConnectionCheck.problem("http://127.0.0.1:9", "")).contains("enter the grid token");
    assertThat(ConnectionCheck.problem("http://127.0.0.1:9", "ctk1_0123456789abcdef_" + "A".repeat(43))).contains("unreachable");
  }
}
