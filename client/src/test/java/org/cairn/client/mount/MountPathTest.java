package org.cairn.client.mount;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MountPathTest {
  @Test
  void pathsParseByDepth() {
    assertThat(MountPath.parse("/").isRoot()).isTrue();
    assertThat(MountPath.parse("/n1").isNode()).isTrue();
    MountPath entry = MountPath.parse("/n1/12");
    assertThat(entry.isEntry()).isTrue();
    assertThat(entry.step()).isEqualTo(12);
    MountPath inside = MountPath.parse("/n1/.new-5/sub/ckpt.dmtcp");
    assertThat(inside.isInside()).isTrue();
    assertThat(inside.staging()).isTrue();
    assertThat(inside.rest()).isEqualTo("sub/ckpt.dmtcp");
    assertThat(inside.last()).isEqualTo("ckpt.dmtcp");
    assertThat(inside.entry()).isEqualTo(MountPath.parse("/n1/.new-5"));
  }

  @Test
  void onlyPositiveDecimalNamesAreSteps() {
    assertThat(MountPath.step("7")).isEqualTo(7);
    assertThat(MountPath.step("0")).isEqualTo(-1);
    assertThat(MountPath.step("latest")).isEqualTo(-1);
    assertThat(MountPath.step("-3")).isEqualTo(-1);
    assertThat(MountPath.step("99999999999999999999")).isEqualTo(-1);
    assertThat(MountPath.parse("/n1/.new-").staging()).isFalse();
  }
}
