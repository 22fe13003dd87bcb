package org.cairn.peer.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.security.GridToken;
import org.junit.jupiter.api.Test;

class DataHandlerTest {
  private final GridToken token = GridToken.of(GridToken.generate());

  private byte[] challenge(EmbeddedChannel ch) {
    Frame c = ch.readOutbound();
    try {
      assertThat(c.type()).isEqualTo(FrameType.CHALLENGE);
      return ByteBufUtil.getBytes(c.payload());
    } finally {
      c.release();
    }
  }

  private static Frame next(EmbeddedChannel ch) {
    return ch.readOutbound();
  }

  @Test
  void rightProof_thenPingIsAnswered() {
    EmbeddedChannel ch = new EmbeddedChannel(new DataHandler(token));
    byte[] nonce = challenge(ch);
    ch.writeInbound(Frame.of(FrameType.AUTH, 1, token.hmac(nonce)));
    Frame ok = next(ch);
    assertThat(ok.type()).isEqualTo(FrameType.AUTH_OK);
    ok.release();
    ch.writeInbound(Frame.of(FrameType.PING, 9, "x".getBytes(StandardCharsets.UTF_8)));
    Frame pong = next(ch);
    assertThat(pong.type()).isEqualTo(FrameType.PONG);
    assertThat(pong.requestId()).isEqualTo(9);
    assertThat(pong.payload().toString(StandardCharsets.UTF_8)).isEqualTo("x");
    pong.release();
    assertThat(ch.isOpen()).isTrue();
    assertThat(ch.finishAndReleaseAll()).isFalse();
  }

  @Test
  void wrongProof_closesWithAnError() {
    EmbeddedChannel ch = new EmbeddedChannel(new DataHandler(token));
    byte[] nonce = challenge(ch);
    ch.writeInbound(Frame.of(FrameType.AUTH, 1, GridToken.of(GridToken.generate()).hmac(nonce)));
    Frame err = next(ch);
    assertThat(err.type()).isEqualTo(FrameType.ERROR);
    assertThat(err.payload().toString(StandardCharsets.UTF_8)).contains("authentication failed");
    err.release();
    assertThat(ch.isOpen()).isFalse();
    ch.finishAndReleaseAll();
  }

  @Test
  void proofForAnotherChallenge_isRefused() {
    EmbeddedChannel first = new EmbeddedChannel(new DataHandler(token));
    byte[] firstNonce = challenge(first);
    EmbeddedChannel second = new EmbeddedChannel(new DataHandler(token));
    challenge(second);
    // replaying a proof made for another connection's challenge
    second.writeInbound(Frame.of(FrameType.AUTH, 1, token.hmac(firstNonce)));
    Frame err = next(second);
    assertThat(err.type()).isEqualTo(FrameType.ERROR);
    err.release();
    assertThat(second.isOpen()).isFalse();
    first.finishAndReleaseAll();
    second.finishAndReleaseAll();
  }

  @Test
  void requestBeforeAuth_closesWithAnError() {
    EmbeddedChannel ch = new EmbeddedChannel(new DataHandler(token));
    challenge(ch);
    ch.writeInbound(Frame.of(FrameType.PING, 1, new byte[0]));
    Frame err = next(ch);
    assertThat(err.type()).isEqualTo(FrameType.ERROR);
    assertThat(err.payload().toString(StandardCharsets.UTF_8)).contains("authenticate first");
    err.release();
    assertThat(ch.isOpen()).isFalse();
    ch.finishAndReleaseAll();
  }
}
