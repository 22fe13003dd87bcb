package org.cairn.tracker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.BackupRequest;
import org.cairn.core.api.catalog.CommitRequest;
import org.cairn.core.config.HostPort;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.manifest.Manifest;
import org.cairn.core.security.GridToken;
import org.cairn.tracker.service.TrackerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The {@code cairn-tracker backup --to DIR}: a running tracker writes a consistent copy of its
 * data directory while it serves; a tracker started on the copy serves the versions it held (and its
 * admin token still works); a stopped tracker's directory is copied by the command itself.
 */
class TrackerBackupTest {
  @TempDir
  Path dir;

  @Test
  void aRunningTrackersBackup_restoresToATrackerServingTheSameVersions() throws Exception {
    Path data = dir.resolve("data");
    Path online = dir.resolve("backup-online");
    Path offline = dir.resolve("backup-offline");
    try (Tracker t = start(data)) {
      TrackerClient c = client(t, data);
      commit(c, "v1");
      commit(c, "v2");
      BackupRequest.Answer a = c.backup(online.toString());
      assertThat(a.versions()).isEqualTo(2);
      assertThat(a.chunks()).isEqualTo(2);
      assertThat(Files.exists(online.resolve("db"))).isTrue();
      assertThat(Files.getPosixFilePermissions(online.resolve("admin.token"))).as("keys stay private")
          .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
      commit(c, "v3"); // after the backup: not in it
      assertThatThrownBy(() -> c.backup(online.toString())).hasMessageContaining("exists");
      assertThatThrownBy(() -> c.backup("relative/dir")).hasMessageContaining("absolute");
      // the command against the running tracker: its database is locked, so the tracker makes the copy
      Path viaCli = dir.resolve("backup-cli");
      Run r = cairnTracker("backup", "--data", data.toString(), "--to", viaCli.toString(), "--tracker", "http://127.0.0.1:" + t.port());
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.out()).contains("backed up 3 versions");
    }
    try (Tracker restored = start(online)) {
      TrackerClient c = client(restored, online);
      assertThat(c.versions("heat", "n1")).extracting(v -> v.step()).containsExactly(1L, 2L);
    }
    Run r = cairnTracker("backup", "--data", data.toString(), "--to", offline.toString(), "--json");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("\"versions\":3");
    try (Tracker restored = start(offline)) {
      assertThat(client(restored, offline).versions("heat", "n1")).hasSize(3);
    }
  }

  private record Run(int exit, String out, String err) {}

  private static Run cairnTracker(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new TrackerMain()).setAllowSubcommandsAsOptionParameters(true);
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int exit = cl.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  /** A tracker with roles (no --token-file: it makes DATA/admin.token at its first start). */
  private static Tracker start(Path data) throws Exception {
    return new Tracker(TrackerConfig.builder(data).listen(HostPort.parse("127.0.0.1:0")).heartbeatInterval(Duration.ofSeconds(1))
        .historySlot(Duration.ofSeconds(1)).historyRetention(Duration.ofDays(1)).historyWindow(Duration.ofDays(1))
        .repairInterval(Duration.ofMillis(500)).repairJobsPerPeer(2).tls(false).build(),
        Clock.systemUTC());
  }

  private static TrackerClient client(Tracker t, Path data) throws Exception {
    return new TrackerClient(URI.create("http://127.0.0.1:" + t.port()), GridToken.readFile(data.resolve("admin.token")),
        Duration.ofSeconds(30));
  }

  private static void commit(TrackerClient c, String seed) throws Exception {
    ChunkId id = ChunkId.of(seed.getBytes(StandardCharsets.UTF_8));
    Manifest m = Manifest.of("heat", "n1", 0, 4096, "code:2+1", "none", "file", System.currentTimeMillis(), "client",
        List.of(new ChunkRef(id, 4096)));
    List<CommitRequest.NewChunk> sent = new ArrayList<>();
    sent.add(new CommitRequest.NewChunk(id.hex(), List.of("p1", "p2", "p3"), List.of("00000001", "00000002", "00000003"), 3000, null));
    c.commit(new CommitRequest(m, sent, null));
  }
}
