package org.cairn.client.tuning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The client's tuning: its defaults, the {@code -Dcairn.*} names benchmark scripts pass, and values it refuses. */
class ClientTuningTest {
  private static Properties props(String... keyValues) {
    Properties p = new Properties();
    for (int i = 0; i < keyValues.length; i += 2) {
      p.setProperty(keyValues[i], keyValues[i + 1]);
    }
    return p;
  }

  @Test
  void noPropertiesGiveTheDefaults() {
    ClientTuning d = ClientTuning.defaults();
    assertThat(ClientTuning.from(new Properties())).isEqualTo(d);
    assertThat(d.inFlightBytes()).isEqualTo(48L << 20);
    assertThat(d.batchBytes()).isEqualTo(4 << 20);
    assertThat(d.putsInFlight()).isEqualTo(2);
    assertThat(d.lingerMillis()).isEqualTo(20);
    assertThat(d.lingerBytes()).isEqualTo(1 << 20);
    assertThat(d.nameLingerMillis()).isEqualTo(20);
    assertThat(d.catalogRecords()).isTrue();
    assertThat(d.heldBaseBytes()).isBetween(1L, 64L << 20);
    assertThat(d.baseCache()).isNull();
    assertThat(d.baseCacheBytes()).isEqualTo(4L << 30);
    assertThat(d.fetchBasesAll()).isFalse();
  }

  @Test
  void everyPropertyTheBenchmarkScriptsPass_isRead() {
    ClientTuning t = ClientTuning.from(props("cairn.store.inFlightBytes", "16777216", "cairn.store.batchBytes", "16777216",
        "cairn.store.putsInFlight", "1", "cairn.store.lingerMillis", "0", "cairn.store.lingerBytes", "2097152",
        "cairn.store.nameLingerMillis", "50", "cairn.store.catalogRecords", "false", "cairn.store.heldBaseBytes", "0",
        "cairn.baseCache", "/tmp/bc-a", "cairn.baseCacheBytes", "0x10000000", "cairn.fetch.basesAll", "TRUE"));
    assertThat(t).isEqualTo(new ClientTuning(16L << 20, 16 << 20, 1, 0, 2 << 20, 50, false, 0, "/tmp/bc-a", 1L << 28, true));
  }

  @Test
  void blankValuesAreUnset() {
    assertThat(ClientTuning.from(props("cairn.store.lingerMillis", " ", "cairn.baseCache", "", "cairn.fetch.basesAll", "")))
        .isEqualTo(ClientTuning.defaults());
  }

  @Test
  void aValueOutOfRange_failsNamingThePropertyAndItsRange() {
    assertThatThrownBy(() -> ClientTuning.from(props("cairn.store.putsInFlight", "0"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cairn.store.putsInFlight must be 1..1024, was 0");
    assertThatThrownBy(() -> ClientTuning.from(props("cairn.store.inFlightBytes", "-1")))
        .hasMessage("cairn.store.inFlightBytes must be at least 1, was -1");
    assertThatThrownBy(() -> ClientTuning.from(props("cairn.store.batchBytes", "33554432")))
        .as("a batch whose PUT would not fit a frame").hasMessageStartingWith("cairn.store.batchBytes must be 1..");
    assertThatThrownBy(() -> ClientTuning.from(props("cairn.store.batchBytes", "4294967296")))
        .hasMessage("cairn.store.batchBytes must be at most 2147483647, was 4294967296");
    assertThatThrownBy(() -> ClientTuning.from(props("cairn.store.lingerMillis", "3600000")))
        .hasMessage("cairn.store.lingerMillis must be 0..60000, was 3600000");
    assertThatThrownBy(() -> new ClientTuning(1, 1, 1, 0, 0, 0, true, -5, null, 0, false))
        .hasMessage("cairn.store.heldBaseBytes must be at least 0, was -5");
  }

  @Test
  void aValueThatIsNotANumberOrAFlag_failsQuotingIt() {
    assertThatThrownBy(() -> ClientTuning.from(props("cairn.store.lingerBytes", "1M"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cairn.store.lingerBytes must be a whole number, was \"1M\"");
    assertThatThrownBy(() -> ClientTuning.from(props("cairn.store.catalogRecords", "no")))
        .hasMessage("cairn.store.catalogRecords must be true or false, was \"no\"");
  }
}
