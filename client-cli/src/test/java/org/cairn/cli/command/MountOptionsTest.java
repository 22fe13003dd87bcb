package org.cairn.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class MountOptionsTest {
  @Test
  void allowOtherComesWithDefaultPermissionsSoTheKernelChecksModes() {
    List<String> opts = List.of(MountCommand.fuseOptions("heat", true).split(","));
    assertThat(opts).contains("allow_other", "default_permissions");
  }

  @Test
  void aPrivateMountNeedsNeither() {
    List<String> opts = List.of(MountCommand.fuseOptions("heat", false).split(","));
    assertThat(opts).doesNotContain("allow_other", "default_permissions").contains("fsname=cairn:heat");
  }
}
