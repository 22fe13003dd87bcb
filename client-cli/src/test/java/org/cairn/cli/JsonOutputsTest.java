package org.cairn.cli;

import java.util.List;
import org.cairn.cli.command.PolicyCommand;
import org.cairn.cli.command.VerifyCommand;
import org.cairn.cli.output.Json;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The commands' {@code --json} records: their keys in a fixed order, optional ones left out. */
class JsonOutputsTest {
  @Test
  void verify_leavesThePartOut_ofAPlainVersion_andPutsItAfterTheStep_ofASetsPart() throws Exception {
    String plain = Json.MAPPER.writeValueAsString(
        new VerifyCommand.Verified("a", "n", 3, null, "code:4+2", true, 10, 10, 0, 0, 60, 0, false, List.of()));
    assertThat(plain).doesNotContain("part")
        .startsWith("{\"app\":\"a\",\"node\":\"n\",\"step\":3,\"redundancy\":\"code:4+2\",\"restorable\":true,");
    String part = Json.MAPPER.writeValueAsString(
        new VerifyCommand.Verified("a", "n", 3, 2, "code:4+2", false, 10, 8, 1, 1, 60, 7, true, List.of("chunk x lost")));
    assertThat(part).startsWith("{\"app\":\"a\",\"node\":\"n\",\"step\":3,\"part\":2,\"redundancy\"")
        .endsWith("\"readData\":true,\"problems\":[\"chunk x lost\"]}");
  }

  @Test
  void policyDryRun_keepsItsKeysInOrder() throws Exception {
    String json = Json.MAPPER.writeValueAsString(
        new PolicyCommand.DryRun("runs", true, List.of(new PolicyCommand.Doomed("a", "n", 1, 1700000000000L, 42))));
    assertThat(json).isEqualTo("{\"folder\":\"runs\",\"dryRun\":true,\"wouldDelete\":"
        + "[{\"app\":\"a\",\"node\":\"n\",\"step\":1,\"committedAt\":1700000000000,\"size\":42}]}");
  }
}
