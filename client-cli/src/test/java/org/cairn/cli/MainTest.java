package org.cairn.cli;

import org.cairn.cli.agent.wire.Argv;
import org.cairn.cli.startup.Preload;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which command lines the entry point hands to an agent. */
class MainTest {
  private static boolean handed(String... args) {
    String command = null;
    for (String a : args) {
      if (!a.startsWith("-")) {
        command = a;
        break;
      }
    }
    return Main.handed(command, args);
  }

  @Test
  void aJobsCommandsGoToTheAgent_helpVersionAndStandardInputStayHere() {
    assertThat(handed("store", "ckpt.img", "--app", "a", "--node", "n")).isTrue();
    assertThat(handed("versions", "--app", "a", "--node", "n")).isTrue();
    assertThat(handed("store", "-", "--app", "a", "--node", "n")).as("standard input").isFalse();
    assertThat(handed("store", "--help")).isFalse();
    assertThat(handed("status")).as("not a job's command").isFalse();
    // no command word at all (CAIRN_AGENT_SOCKET exported, then `cairn --version`): stays here, no exception
    assertThat(handed("--version")).isFalse();
    assertThat(handed()).isFalse();
  }

  @Test
  void theCommandWord_isTheFirstWordThatIsNoGlobalOptionsValue() {
    assertThat(Argv.commandOf(new String[] {"--tracker", "http://t:1", "--token-file", "store", "versions", "--app", "a"}))
        .isEqualTo("versions");
    assertThat(Argv.commandOf(new String[] {"--agent=/s", "-v", "store", "f"})).isEqualTo("store");
    assertThat(Argv.commandOf(new String[] {"--version"})).isNull();
  }

  @Test
  void theClientsKeyDirectoryAndTracker_goToTheAgentAsFlags_unlessTheArgumentsNameThem() {
    java.util.Map<String, String> env = java.util.Map.of("CAIRN_KEY_DIR", "/home/j/keys", "CAIRN_TRACKER", "http://t:7600");
    assertThat(Main.withClientsSettings(new String[] {"store", "f", "--app", "a"}, env))
        .containsExactly("--key-dir", "/home/j/keys", "--tracker", "http://t:7600", "store", "f", "--app", "a");
    assertThat(Main.withClientsSettings(new String[] {"--key-dir=/k", "store", "f"}, env))
        .containsExactly("--tracker", "http://t:7600", "--key-dir=/k", "store", "f");
    assertThat(Main.withClientsSettings(new String[] {"--tracker", "http://u:1", "versions"}, env))
        .containsExactly("--key-dir", "/home/j/keys", "--tracker", "http://u:1", "versions");
    assertThat(Main.withClientsSettings(new String[] {"versions"}, java.util.Map.of("CAIRN_KEY_DIR", " "))).containsExactly("versions");
    assertThat(Main.withClientsSettings(new String[] {"store", "f"}, java.util.Map.of("CAIRN_LOG_LEVEL", "debug")))
        .as("the job's DEBUG as -v").containsExactly("-v", "store", "f");
    assertThat(Main.withClientsSettings(new String[] {"-qv", "store", "f"}, java.util.Map.of("CAIRN_LOG_LEVEL", "DEBUG")))
        .as("not twice").containsExactly("-qv", "store", "f");
    assertThat(Main.withClientsSettings(new String[] {"store", "f"}, java.util.Map.of("CAIRN_LOG_LEVEL", "INFO"))).containsExactly("store", "f");
    assertThat(Argv.withFlags(java.util.List.of("store", "f"), java.util.Map.of("--key-dir", "/agent/keys")))
        .as("an agent's own key directory for a command naming none").containsExactly("--key-dir", "/agent/keys", "store", "f");
  }

  @Test
  void aGridCommandsStart_initialisesItsSlowClassesOnAThreadOfItsOwn() throws Exception {
    for (String name : Preload.CLASSES) { // a renamed class would quietly end the preload
      assertThat(Class.forName(name, false, Preload.class.getClassLoader())).isNotNull();
    }
    for (var e : Preload.MESSAGES.entrySet()) { // each a message Jackson reads and writes (prepare would skip it quietly)
      assertThat(Argv.HANDED).contains(e.getKey());
      for (Class<?> type : e.getValue()) {
        var t = org.cairn.core.api.TrackerHttp.JSON.constructType(type);
        assertThat(org.cairn.core.api.TrackerHttp.JSON.canDeserialize(t)).as(type.getName()).isTrue();
        assertThat(org.cairn.core.api.TrackerHttp.JSON.canSerialize(type)).as(type.getName()).isTrue();
      }
    }
    assertThat(Preload.codesAgainstBases(new String[] {"store", "f", "--app", "a", "--node", "n"})).isTrue();
    assertThat(Preload.codesAgainstBases(new String[] {"store", "f", "--delta", "off"})).isFalse();
    assertThat(Preload.codesAgainstBases(new String[] {"store", "f", "--delta=off"})).isFalse();
    assertThat(Preload.codesAgainstBases(new String[] {"store", "f", "--set", "3", "--part", "0", "--parts", "2"})).isFalse();
    assertThat(Preload.start("key", new String[] {"key"})).as("no grid: nothing to start").isNull();
    assertThat(Preload.start(null, new String[0])).isNull();
    Thread t = Preload.start("store", new String[] {"store", "f", "--delta", "off"}); // not this host's cache of bases
    assertThat(t).isNotNull();
    t.join(30_000);
    assertThat(t.isAlive()).isFalse();
  }
}
