package org.cairn.peer.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/** The total cap on open connections, and a closed connection giving its place back. */
class ConnectionCounterTest {
  @Test
  void aConnectionOverTheTotalCapIsRefusedUntilAnotherCloses() {
    ConnectionCounter counter = new ConnectionCounter(ConnectionLimits.of(2, 1));
    EmbeddedChannel a = new EmbeddedChannel();
    EmbeddedChannel b = new EmbeddedChannel();
    EmbeddedChannel c = new EmbeddedChannel();
    assertThat(counter.admit(a)).isTrue();
    assertThat(counter.admit(b)).isTrue();
    assertThat(counter.admit(c)).as("a third over a cap of two").isFalse();
    assertThat(counter.open()).isEqualTo(2);
    a.close();
    assertThat(counter.open()).isEqualTo(1);
    assertThat(counter.admit(c)).as("the closed one's place").isTrue();
    b.close();
    c.close();
    assertThat(counter.open()).isZero();
  }
}
