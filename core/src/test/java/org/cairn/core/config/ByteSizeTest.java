package org.cairn.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ByteSizeTest {
  @Test
  void parse_acceptsBinaryAndDecimalUnits() {
    assertThat(ByteSize.parse("1048576")).isEqualTo(1048576L);
    assertThat(ByteSize.parse("64KiB")).isEqualTo(65536L);
    assertThat(ByteSize.parse("1MiB")).isEqualTo(1L << 20);
    assertThat(ByteSize.parse("2GiB")).isEqualTo(2L << 30);
    assertThat(ByteSize.parse("2g")).isEqualTo(2L << 30);
    assertThat(ByteSize.parse("500MB")).isEqualTo(500_000_000L);
    assertThat(ByteSize.parse("1.5KiB")).isEqualTo(1536L);
  }

  @Test
  void parse_namesTheBadValue() {
    assertThatThrownBy(() -> ByteSize.parse("lots")).hasMessageContaining("'lots'");
    assertThatThrownBy(() -> ByteSize.parse("-5MiB")).hasMessageContaining("'-5MiB'");
  }

  @Test
  void format_usesBinaryUnits() {
    assertThat(ByteSize.format(512)).isEqualTo("512 B");
    assertThat(ByteSize.format(1536)).isEqualTo("1.5 KiB");
    assertThat(ByteSize.format(3L << 30)).isEqualTo("3.0 GiB");
  }
}
