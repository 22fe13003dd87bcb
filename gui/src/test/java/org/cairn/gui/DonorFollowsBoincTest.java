package org.cairn.gui;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.cairn.core.security.GridToken;
import org.cairn.gui.boinc.BoincPrefsReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The donor app (a real in-process peer; no tracker is needed for what is checked here, so it points at a closed port)
 * following the BOINC preferences a real client wrote: it adopts them at start, follows an edit, and keeps its settings
 * when the file turns hostile.
 */
class DonorFollowsBoincTest {
  @TempDir
  Path dir;

  @Test
  void theDonorAdoptsBoincsPreferencesFollowsTheirChangesAndIgnoresAHostileFile() throws Exception {
    Path boinc = Files.createDirectories(dir.resolve("boinc"));
    Path override = boinc.resolve(BoincPrefsReader.OVERRIDE);
    String real = Files.readString(Path.of(getClass().getResource("/boinc/manager-override/" + BoincPrefsReader.OVERRIDE).toURI()));
    Files.writeString(override, real);
    Files.writeString(dir.resolve("token"), GridToken.generate() + "\n");
    Path file = dir.resolve("donor.yaml");
    new DonorSettings(java.util.Map.of()).with("tracker", "http://127.0.0.1:1").with("token-file", dir.resolve("token").toString())
        .with("data", dir.resolve("data").toString()).with("quota", "1GiB").with("listen", "127.0.0.1:0")
        .with(BoincAdoption.DIR, boinc.toString()).save(file, Files.readString(dir.resolve("token")));
    try (Donor donor = new Donor(DonorSettings.load(file).peerConfig(file), file, DonorRules.Settings.parse(0.8, "60s", "", ""))) {
      await("the BOINC preferences adopted", () -> donor.config().effectiveUploadCap() == 102_400);
      DonorSettings adopted = DonorSettings.load(file);
      assertThat(donor.quota()).isEqualTo(Long.parseLong(adopted.get("quota"))).isLessThanOrEqualTo(20_000_000_000L);
      assertThat(donor.config().effectiveDownloadCap()).isEqualTo(512_000);
      assertThat(donor.config().minFreeBytes()).isEqualTo(5_000_000_000L);
      assertThat(donor.rules().hours()).hasToString("22:30-06:00, sat 09:00-13:15, sun 00:00-00:00");
      assertThat(donor.rules().busyCpu()).isEqualTo(0.5);
      assertThat(donor.rules().busyAfter()).isEqualTo(Duration.ofMinutes(5));
      assertThat(donor.rules().dailyUploadCap()).isEqualTo(1_000_000_000L);
      assertThat(adopted.get("tracker")).as("what BOINC does not say stays the owner's").isEqualTo("http://127.0.0.1:1");
      assertThat(String.join("\n", donor.activity().events().stream().map(Activity.Event::what).toList()))
          .contains("BOINC preferences adopted").contains("upload-cap: none -> 100 KiB/s");

      // the owner changes BOINC's preferences: the client rewrites the file in place
      Files.writeString(override, real.replace("<disk_max_used_gb>20.000000", "<disk_max_used_gb>0.500000")
          .replace("<disk_min_free_gb>5.000000", "<disk_min_free_gb>0.000000")
          .replace("<max_bytes_sec_up>102400.000000", "<max_bytes_sec_up>204800.000000")
          .replace("<net_start_hour>22.500000</net_start_hour>", "<net_start_hour>20.000000</net_start_hour>"));
      await("the changed preferences applied", () -> donor.config().effectiveUploadCap() == 204_800 && donor.quota() == 500_000_000L);
      assertThat(donor.rules().hours()).hasToString("20:00-06:00, sat 09:00-13:15, sun 00:00-00:00");
      assertThat(DonorSettings.load(file).get("quota")).isEqualTo("500000000");

      int seen = donor.boincSeen();
      Files.writeString(override, "<!DOCTYPE global_preferences [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
          + "<global_preferences><disk_max_used_gb>&x;</disk_max_used_gb></global_preferences>", StandardCharsets.UTF_8);
      await("the hostile file seen", () -> donor.boincSeen() > seen);
      assertThat(donor.quota()).isEqualTo(500_000_000L);
      assertThat(donor.config().effectiveUploadCap()).isEqualTo(204_800);
      assertThat(donor.activity().events().get(donor.activity().events().size() - 1).what())
          .startsWith("BOINC preferences not used (settings unchanged): ").contains("DOCTYPE").doesNotContain("root:");
    }
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
      Thread.sleep(50); // polling a condition, with a deadline
    }
  }
}
