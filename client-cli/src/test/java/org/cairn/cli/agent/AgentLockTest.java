package org.cairn.cli.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentLockTest {
  @TempDir
  Path dir;

  @Test
  void oneAgentHoldsASocketsLockAndItNamesThatAgent() throws Exception {
    Path socket = dir.resolve("agent.sock");
    assertThat(AgentLock.held(socket)).isFalse();
    assertThat(AgentLock.holder(socket)).isEmpty();
    try (AgentLock lock = AgentLock.take(socket)) {
      assertThat(lock).isNotNull();
      assertThat(AgentLock.take(socket)).as("a second agent on the same socket").isNull();
      assertThat(AgentLock.held(socket)).isTrue();
      assertThat(AgentLock.holder(socket)).as("the pid it names is alive and this user's, but no cairn agent: nobody to stop")
          .isEmpty();
      assertThat(Files.getPosixFilePermissions(AgentLock.pathOf(socket))).isEqualTo(PosixFilePermissions.fromString("rw-------"));
      assertThat(Files.readString(AgentLock.pathOf(socket)).strip()).isEqualTo(Long.toString(ProcessHandle.current().pid()));
    }
    assertThat(AgentLock.held(socket)).as("released when its holder ends").isFalse();
  }

  @Test
  void aJarReplacedByANewBuildIsSeenAsChanged() throws Exception {
    Path jar = Files.write(dir.resolve("cairn.jar"), new byte[] {1, 2, 3});
    JarStamp stamp = JarStamp.of(jar);
    assertThat(stamp.changed()).isFalse();
    Path next = Files.write(dir.resolve("cairn.jar.new"), new byte[] {1, 2, 3});
    Files.move(next, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    assertThat(stamp.changed()).as("same size, a new file").isTrue();
    Files.delete(jar);
    assertThat(JarStamp.of(dir.resolve("gone.jar")).changed()).as("missing at start and still missing").isFalse();
  }

  @Test
  void anAgentDeclinesOnlyAClientWhoseBaseCacheIsNotItsOwn() {
    String own = System.getenv("CAIRN_BASE_CACHE");
    assertThat(Agent.unservable(own == null ? java.util.Map.of() : java.util.Map.of("CAIRN_BASE_CACHE", own))).isNull();
    assertThat(Agent.unservable(java.util.Map.of("CAIRN_BASE_CACHE", "/elsewhere/bases", "CAIRN_CLIENT_ID", "x")))
        .contains("CAIRN_BASE_CACHE");
    assertThat(Agent.unservable(own == null ? java.util.Map.of("CAIRN_CLIENT_ID", "another-host")
        : java.util.Map.of("CAIRN_BASE_CACHE", own, "CAIRN_CLIENT_ID", "another-host"))).as("the client's id is honoured").isNull();
  }
}
