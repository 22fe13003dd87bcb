package org.cairn.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.cairn.core.net.DataTls;
import org.cairn.core.security.GridToken;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class PeerConfigTest {
  @TempDir
  Path dir;

  private PeerConfig parse(String... args) throws Exception {
    PeerMain main = new PeerMain();
    new CommandLine(main).parseArgs(args);
    return main.config();
  }

  private Path token() throws Exception {
    return Files.writeString(dir.resolve("token"), GridToken.generate() + "\n");
  }

  @Test
  void yamlFile_givesSettingsAndFlagsWin() throws Exception {
    Path yaml = Files.writeString(dir.resolve("peer.yaml"), String.join("\n",
        "tracker: http://10.1.2.3:7600",
        "data: " + dir.resolve("data"),
        "quota: 3GiB",
        "token-file: " + token(),
        "heartbeat-interval: 2s",
        "tau1: 0.4",
        "max-clients: 4",
        "paused: true",
        "bandwidth-cap: 10MiB",
        "upload-cap: 100KiB",
        "report-disk-rate: false",
        ""));
    PeerConfig c = parse("--config", yaml.toString(), "--quota", "1GiB");
    assertThat(c.tracker().toString()).isEqualTo("http://10.1.2.3:7600");
    assertThat(c.quotaBytes()).isEqualTo(1L << 30);
    assertThat(c.heartbeatInterval().toMillis()).isEqualTo(2000);
    assertThat(c.tau1()).isEqualTo(0.4);
    assertThat(c.tau2()).isEqualTo(0.8);
    assertThat(c.maxClients()).isEqualTo(4);
    assertThat(c.paused()).isTrue();
    assertThat(c.bandwidthCap()).isEqualTo(10L << 20);
    assertThat(c.effectiveUploadCap()).as("its own cap").isEqualTo(100L << 10);
    assertThat(c.effectiveDownloadCap()).as("the cap each way").isEqualTo(10L << 20);
    assertThat(parse("--config", yaml.toString(), "--quota", "1GiB", "--download-cap", "1MiB").effectiveDownloadCap()).isEqualTo(1L << 20);
    assertThat(c.reportDiskRate()).isFalse();
    assertThat(parse("--config", yaml.toString(), "--quota", "1GiB", "--report-disk-rate", "true").reportDiskRate()).as("the flag wins").isTrue();
    assertThat(c.listen().toString()).isEqualTo("127.0.0.1:0");
  }

  @Test
  void everyBadValueIsNamed() throws Exception {
    String t = token().toString();
    String[] base = {"--tracker", "http://127.0.0.1:7600", "--data", dir.toString(), "--token-file", t};
    assertThatThrownBy(() -> parse(concat(base, "--quota", "lots"))).hasMessageContaining("'lots'");
    assertThatThrownBy(() -> parse(concat(base, "--quota", "0"))).hasMessageContaining("quota must be positive, was 0");
    assertThatThrownBy(() -> parse(concat(base, "--quota", "1GiB", "--tau1", "0.9"))).hasMessageContaining("tau1=0.9");
    assertThatThrownBy(() -> parse(concat(base, "--quota", "1GiB", "--listen", "nowhere"))).hasMessageContaining("'nowhere'");
    assertThatThrownBy(() -> parse(concat(base, "--quota", "1GiB", "--report-disk-rate", "maybe"))).hasMessageContaining("'maybe'");
    assertThatThrownBy(() -> parse(concat(base, "--quota", "1GiB", "--heartbeat-interval", "soon"))).hasMessageContaining("'soon'");
    assertThatThrownBy(() -> parse("--tracker", "ftp://x", "--data", dir.toString(), "--token-file", t, "--quota", "1GiB"))
        .hasMessageContaining("'ftp://x'");
    assertThatThrownBy(() -> parse("--data", dir.toString())).hasMessageContaining("missing required settings: --tracker, --token-file, --quota");
    Path yaml = Files.writeString(dir.resolve("bad.yaml"), "quota: 1GiB\ncolour: blue\n");
    assertThatThrownBy(() -> parse(concat(base, "--config", yaml.toString()))).hasMessageContaining("unknown setting 'colour'");
    Path donorYaml = Files.writeString(dir.resolve("donor.yaml"), "quota: 3GiB\ndonor-hours: 08:00-18:00\ndonor-busy-cpu: 0.5\n");
    assertThat(parse(concat(base, "--config", donorYaml.toString())).quotaBytes()).as("the donor app's keys are left to it")
        .isEqualTo(3L << 30);
    Path yaml2 = Files.writeString(dir.resolve("bad2.yaml"), "quota: 1GiB\nmax-clients: many\n");
    assertThatThrownBy(() -> parse(concat(base, "--config", yaml2.toString()))).hasMessageContaining("max-clients must be a number, was 'many'");
    Path shortToken = Files.writeString(dir.resolve("short"), "abc\n");
    assertThatThrownBy(() -> parse("--tracker", "http://127.0.0.1:7600", "--data", dir.toString(), "--token-file", shortToken.toString(),
        "--quota", "1GiB")).hasMessageContaining("too short").hasMessageNotContaining("abc");
  }

  @Test
  void connectionCapsDefaultAndAreSetByFlagOrFile() throws Exception {
    String t = token().toString();
    String[] base = {"--tracker", "http://127.0.0.1:7600", "--data", dir.toString(), "--token-file", t, "--quota", "1GiB"};
    assertThat(parse(base).connectionLimits()).isEqualTo(org.cairn.peer.server.ConnectionLimits.DEFAULT);
    var set = parse(concat(base, "--max-connections", "100", "--max-connections-per-address", "10")).connectionLimits();
    assertThat(set.maxConnections()).isEqualTo(100);
    assertThat(set.maxPerAddress()).isEqualTo(10);
    assertThat(set.authDeadline()).isEqualTo(org.cairn.peer.server.ConnectionLimits.DEFAULT.authDeadline());
    Path yaml = Files.writeString(dir.resolve("caps.yaml"), "max-connections-per-address: 3\n");
    assertThat(parse(concat(base, "--config", yaml.toString())).connectionLimits().maxPerAddress()).isEqualTo(3);
    assertThatThrownBy(() -> parse(concat(base, "--max-connections", "10", "--max-connections-per-address", "20")))
        .hasMessageContaining("max connections per address 1..10");
    assertThatThrownBy(() -> parse(concat(base, "--max-connections", "0"))).hasMessageContaining("max connections must be at least 1");
  }

  @Test
  void theBuildersDefaultsAreTheOnesThePeerStartsWithWhenNoFlagSetsThem() throws Exception {
    PeerConfig parsed = parse("--tracker", "http://127.0.0.1:7600", "--data", dir.toString(), "--token-file", token().toString(),
        "--quota", "1GiB");
    PeerConfig built = PeerConfig.builder(List.of(URI.create("http://127.0.0.1:7600")), dir, parsed.token(), 1L << 30).build();
    assertThat(built).usingRecursiveComparison().isEqualTo(parsed);
    assertThat(built.heartbeatInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(built.minFreeBytes()).isEqualTo(1L << 30);
    assertThat(built.directIo()).isTrue();
    assertThat(built.tlsWrapBytes()).isEqualTo(DataTls.DEFAULT_WRAP_BYTES);
  }

  @Test
  void aBuiltConfigIsValidatedAndNamesTheBadSetting() {
    GridToken t = GridToken.of(GridToken.generate());
    PeerConfig.Builder ok = PeerConfig.builder(List.of(URI.create("https://tracker.example:7600")), dir, t, 1L << 30);
    assertThat(ok.build().quotaBytes()).isEqualTo(1L << 30);
    assertThatThrownBy(() -> PeerConfig.builder(List.of(URI.create("ftp://x")), dir, t, 1).build()).hasMessageContaining("'ftp://x'");
    assertThatThrownBy(() -> PeerConfig.builder(List.of(), dir, t, 1)).hasMessageContaining("tracker");
    assertThatThrownBy(() -> PeerConfig.builder(List.of(URI.create("http://h:1")), null, t, 1).build()).hasMessageContaining("data directory");
    assertThatThrownBy(() -> ok.quotaBytes(0).build()).hasMessageContaining("quota must be positive, was 0");
    assertThatThrownBy(() -> valid(t).tau1(0.9).tau2(0.8).build()).hasMessageContaining("tau1=0.9 tau2=0.8");
    assertThatThrownBy(() -> valid(t).repairThreads(17).build()).hasMessageContaining("repair threads 1-16");
    assertThatThrownBy(() -> valid(t).heartbeatInterval(Duration.ofMillis(10)).build()).hasMessageContaining("was 10ms");
    assertThatThrownBy(() -> valid(t).tlsWrapBytes(0).build()).hasMessageContaining("TLS wrap size must be positive, was 0");
    assertThatThrownBy(() -> valid(t).id("a b").build()).hasMessageContaining("'a b'");
    assertThatThrownBy(() -> valid(t).uploadCap(-1).build()).hasMessageContaining("-1 up");
  }

  @Test
  void aNewQuotaChangesOnlyTheQuota() {
    GridToken t = GridToken.of(GridToken.generate());
    PeerConfig before = valid(t).bandwidthCap(5L << 20).uploadCap(1L << 20).downloadCap(2L << 20).paused(true).directIo(false).id("donor-1").build();
    PeerConfig after = before.withQuota(7L << 30);
    assertThat(after.quotaBytes()).isEqualTo(7L << 30);
    assertThat(after.toBuilder().quotaBytes(before.quotaBytes()).build()).usingRecursiveComparison().isEqualTo(before);
    assertThatThrownBy(() -> before.withQuota(-1)).hasMessageContaining("quota must be positive, was -1");
  }

  @Test
  void theTuningPropertiesAreReadWhereThePeerStarts() throws Exception {
    String[] args = {"--tracker", "http://127.0.0.1:7600", "--data", dir.toString(), "--token-file", token().toString(), "--quota", "1GiB"};
    System.setProperty(PeerMain.DIRECT_IO_PROPERTY, "false");
    System.setProperty(DataTls.WRAP_BYTES_PROPERTY, "16384");
    try {
      PeerConfig c = parse(args);
      assertThat(c.directIo()).isFalse();
      assertThat(c.tlsWrapBytes()).isEqualTo(16384);
      System.setProperty(PeerMain.DIRECT_IO_PROPERTY, "maybe");
      assertThatThrownBy(() -> parse(args)).hasMessageContaining("cairn.peer.directIo must be true or false, was 'maybe'");
    } finally {
      System.clearProperty(PeerMain.DIRECT_IO_PROPERTY);
      System.clearProperty(DataTls.WRAP_BYTES_PROPERTY);
    }
  }

  @Test
  void settingsAlreadyReadParseAsTheirFileWould() throws Exception {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("tracker", "http://10.0.0.1:7600,http://10.0.0.2:7600");
    settings.put("data", dir.resolve("d").toString());
    settings.put("token-file", token().toString());
    settings.put("quota", "2GiB");
    settings.put("donor-hours", "08:00-18:00");
    PeerConfig c = PeerMain.fromSettings(settings, "donor.yaml");
    assertThat(c.trackers()).containsExactly(URI.create("http://10.0.0.1:7600"), URI.create("http://10.0.0.2:7600"));
    assertThat(c.quotaBytes()).isEqualTo(2L << 30);
    settings.put("colour", "blue");
    assertThatThrownBy(() -> PeerMain.fromSettings(settings, "donor.yaml")).hasMessageContaining("unknown setting 'colour' in donor.yaml");
  }

  private PeerConfig.Builder valid(GridToken t) {
    return PeerConfig.builder(List.of(URI.create("http://127.0.0.1:7600")), dir, t, 1L << 30);
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  @Test
  void repairTrafficTakesAtMostHalfOfACappedLink_andTheRepairRateWhenNoneIsCapped() throws Exception {
    String[] base = {"--tracker", "http://127.0.0.1:7600", "--data", dir.toString(), "--token-file", token().toString(), "--quota", "1GiB"};
    PeerConfig uncapped = parse(base);
    assertThat(uncapped.repairUploadRate()).isEqualTo(32L << 20);
    assertThat(uncapped.repairDownloadRate()).isEqualTo(32L << 20);
    PeerConfig capped = parse(concat(base, "--upload-cap", "10MiB", "--download-cap", "100MiB"));
    assertThat(capped.repairUploadRate()).as("half of the upload cap").isEqualTo(5L << 20);
    assertThat(capped.repairDownloadRate()).as("the repair rate is below half of the download cap").isEqualTo(32L << 20);
    PeerConfig unlimitedRepair = parse(concat(base, "--bandwidth-cap", "8MiB", "--repair-rate", "0"));
    assertThat(unlimitedRepair.repairUploadRate()).as("a cap bounds repair even with no repair rate").isEqualTo(4L << 20);
    assertThat(parse(concat(base, "--repair-rate", "0")).repairUploadRate()).as("nothing capped: no limit").isZero();
  }
}
