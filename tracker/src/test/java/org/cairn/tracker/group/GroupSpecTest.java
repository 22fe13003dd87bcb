package org.cairn.tracker.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GroupSpecTest {
  @Test
  void parsesMembersInOrder() {
    GroupSpec g = GroupSpec.parse("t1=10.0.0.1:9711, t2=10.0.0.2:9711,t3=10.0.0.3:9711", "t2");
    assertThat(g.members().keySet()).containsExactly("t1", "t2", "t3");
    assertThat(g.members().get("t2").host()).isEqualTo("10.0.0.2");
    assertThat(g.self()).isEqualTo("t2");
  }

  @Test
  void refusesWhatCannotFormAGroup() {
    assertThatThrownBy(() -> GroupSpec.parse("t1=h:1,t2=h:2,t3=h:3", "t4")).hasMessageContaining("--id must name one of");
    assertThatThrownBy(() -> GroupSpec.parse("t1=h:1,t2=h:2", "t1")).hasMessageContaining("at least 3");
    assertThatThrownBy(() -> GroupSpec.parse("t1=h:1,t2=h:2,t3=h:3,t4=h:4", "t1")).hasMessageContaining("odd number");
    assertThatThrownBy(() -> GroupSpec.parse("t1=h:1,t1=h:2,t3=h:3", "t1")).hasMessageContaining("twice");
    assertThatThrownBy(() -> GroupSpec.parse("h:1,t2=h:2,t3=h:3", "t2")).hasMessageContaining("no ID=");
    assertThatThrownBy(() -> GroupSpec.parse("t1=h:0,t2=h:2,t3=h:3", "t2")).hasMessageContaining("fixed replication port");
  }

  @Test
  void logEntriesWriteOnlyTheSharedFiles() throws Exception {
    byte[] entry = LogEntries.file("tokens/0123456789abcdef.json", new byte[] {1, 2});
    assertThat(LogEntries.readFile(entry).content()).containsExactly(1, 2);
    assertThatThrownBy(() -> LogEntries.file("../etc/passwd", new byte[0])).hasMessageContaining("writes no file");
    assertThatThrownBy(() -> LogEntries.file("tokens/../../x.json", new byte[0])).hasMessageContaining("writes no file");
  }
}
