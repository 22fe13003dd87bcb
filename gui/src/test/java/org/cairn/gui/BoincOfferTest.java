package org.cairn.gui;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.cairn.gui.boinc.BoincPrefsReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The first run's offer, without its dialog: what BOINC's preferences would set, from the files the real client wrote. */
class BoincOfferTest {
  @TempDir
  Path dir;

  private DonorSettings firstRun() {
    return new DonorSettings(Map.of()).with("tracker", "https://").with("data", dir.resolve("data").toString()).with("quota", "1GiB")
        .with("listen", "0.0.0.0:7700");
  }

  @Test
  void theOfferSetsWhatBoincGivesAndFollowsItsDirectory() throws Exception {
    Path boinc = Path.of(getClass().getResource("/boinc/manager-override").toURI());
    BoincOffer.Offer offer = BoincOffer.offer(firstRun(), boinc).orElseThrow();
    DonorSettings s = offer.adopted();
    assertThat(s.get(BoincAdoption.DIR)).isEqualTo(boinc.toString());
    assertThat(s.get("upload-cap")).isEqualTo("102400");
    assertThat(s.get("download-cap")).isEqualTo("512000");
    assertThat(s.get(DonorSettings.HOURS)).isEqualTo("22:30-06:00, sat 09:00-13:15, sun 00:00-00:00");
    assertThat(s.get("tracker")).as("the owner's own").isEqualTo("https://");
    assertThat(offer.changes()).anySatisfy(c -> assertThat(c).startsWith("quota: 1.0 GiB -> "))
        .contains("upload-cap: none -> 100 KiB/s", "donor-daily-upload-cap: none -> 954 MiB", "donor-busy-cpu: default -> 50 %");
  }

  @Test
  void nothingIsOfferedWithoutFilesOrFromAHostileOne() throws Exception {
    assertThat(BoincOffer.offer(firstRun(), dir)).isEmpty();
    Files.writeString(dir.resolve(BoincPrefsReader.OVERRIDE), "<!DOCTYPE x [<!ENTITY a \"b\">]><global_preferences/>");
    assertThat(BoincOffer.offer(firstRun(), dir)).isEmpty();
  }
}
