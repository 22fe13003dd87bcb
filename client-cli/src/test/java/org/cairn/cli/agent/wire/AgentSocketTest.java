package org.cairn.cli.agent.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgentSocketTest {
  @Test
  void theUsersSocketIsInTheRuntimeDirectoryElseInCairnsCache() {
    assertThat(AgentSocket.standard(Map.of("XDG_RUNTIME_DIR", "/run/user/1000", "XDG_CACHE_HOME", "/c"), "/home/u"))
        .isEqualTo(Path.of("/run/user/1000/cairn/agent.sock"));
    assertThat(AgentSocket.standard(Map.of("XDG_CACHE_HOME", "/c"), "/home/u")).isEqualTo(Path.of("/c/cairn/agent.sock"));
    assertThat(AgentSocket.standard(Map.of("XDG_RUNTIME_DIR", " "), "/home/u")).isEqualTo(Path.of("/home/u/.cache/cairn/agent.sock"));
  }

  @Test
  void commandsStartAnAgentUnlessTurnedOffByTheEnvironmentOrTheirArguments() {
    String[] store = {"store", "img", "--app", "a", "--node", "n"};
    assertThat(AgentSocket.selfStarting(store, Map.of())).isTrue();
    assertThat(AgentSocket.selfStarting(store, Map.of("CAIRN_AGENT", "on"))).isTrue();
    for (String off : new String[] {"off", "OFF", "0", "false", "no"}) {
      assertThat(AgentSocket.selfStarting(store, Map.of("CAIRN_AGENT", off))).as(off).isFalse();
    }
    assertThat(AgentSocket.selfStarting(new String[] {"--no-agent", "store", "img"}, Map.of())).isFalse();
    assertThat(AgentSocket.selfStarting(new String[] {"store", "--", "--no-agent"}, Map.of())).as("a file named --no-agent").isTrue();
  }
}
