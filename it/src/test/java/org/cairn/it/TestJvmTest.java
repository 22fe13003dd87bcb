package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestJvmTest {
  @Test
  void extraFlagsAreSplitOnWhitespace_andNoneGivenAddsNothing() {
    assertThat(TestJvm.extraFlags("  -XX:TieredStopAtLevel=4   -Xmx512m ")).containsExactly("-XX:TieredStopAtLevel=4", "-Xmx512m");
    assertThat(TestJvm.extraFlags("")).isEmpty();
  }

  @Test
  void aWordThatIsNoFlagIsRefused_soItCannotBecomeTheProgramsArgument() {
    assertThatThrownBy(() -> TestJvm.extraFlags("-Xmx512m quota"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'quota'");
    assertThatThrownBy(() -> TestJvm.extraFlags("jar")).hasMessageContaining("'jar'");
  }

  @Test
  void aDeployedPeerStartsThroughTheDonorsLauncher_withTheExtraFlagsAfterItsOwn(@TempDir Path dir) throws Exception {
    Path jar = Files.createFile(dir.resolve("cairn-peer.jar"));
    Path launcher = Files.writeString(dir.resolve("cairn-peer"), "#!/bin/sh\n");

    TestJvm.Launch launch = TestJvm.deployedPeer(jar, List.of("-XX:TieredStopAtLevel=4", "-Xmx1g"));

    assertThat(launch.command()).containsExactly("sh", launcher.toString());
    assertThat(launch.env()).containsEntry("CAIRN_PEER_JAVA_OPTS", "-XX:TieredStopAtLevel=4 -Xmx1g")
        .containsEntry("JAVA_HOME", System.getProperty("java.home"));
    assertThat(TestJvm.deployedPeer(jar, List.of()).env()).containsEntry("CAIRN_PEER_JAVA_OPTS", ""); // not the caller's
  }

  @Test
  void aDeployedPeerWithoutItsLauncherIsAClearError(@TempDir Path dir) throws Exception {
    Path jar = Files.createFile(dir.resolve("cairn-peer.jar"));

    assertThatThrownBy(() -> TestJvm.deployedPeer(jar, List.of()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("cairn-peer (the donor's launcher) is missing");
  }

  @Test
  void aDeployedTrackerRunsWithTheJvmsDefaults_notTheSuitesC1OnlyOrHeapLimit(@TempDir Path dir) throws Exception {
    Path jar = Files.createFile(dir.resolve("cairn-tracker.jar"));

    List<String> cmd = TestJvm.launch(jar, TestJvm.Flags.DEPLOYED, List.of()).command();

    assertThat(cmd.get(0)).endsWith("java");
    assertThat(cmd.subList(cmd.size() - 2, cmd.size())).containsExactly("-jar", jar.toString());
    assertThat(cmd).noneMatch(f -> f.startsWith("-XX:TieredStopAtLevel") || f.startsWith("-Xmx") || f.startsWith("-XX:SharedArchive"));
    assertThat(TestJvm.launch(jar, TestJvm.Flags.DEPLOYED, List.of("-XX:TieredStopAtLevel=1")).command())
        .containsSubsequence("-XX:TieredStopAtLevel=1", "-jar"); // the override still applies, before the jar
  }
}
