package org.cairn.client.mount;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AttributesTest {
  @TempDir
  Path tmp;

  @Test
  void theMountReportsItsFilesAsOwnedByTheMountingUser() throws IOException {
    Path mine = Files.writeString(tmp.resolve("mine"), "x");
    Attributes.Owner owner = Attributes.Owner.current();
    assertThat(owner.uid()).isEqualTo(Files.getAttribute(mine, "unix:uid"));
    assertThat(owner.gid()).isEqualTo(Files.getAttribute(tmp, "unix:gid"));
  }
}
