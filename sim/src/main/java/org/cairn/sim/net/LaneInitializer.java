package org.cairn.sim.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;

/** A lane's pipeline: TLS (when the tracker serves it), HTTP/1.1, whole answers, the lane. */
final class LaneInitializer extends ChannelInitializer<Channel> {
  private static final int MAX_ANSWER = 64 << 20;
  private static final long HANDSHAKE_MILLIS = 60_000;
  private final Lane lane;

  LaneInitializer(Lane lane) {
    this.lane = lane;
  }

  @Override
  protected void initChannel(Channel ch) {
    TrackerLanes.Tls tls = ch.attr(TrackerLanes.TLS).get();
    if (tls != null) {
      io.netty.handler.ssl.SslHandler ssl = tls.context().newHandler(ch.alloc(), tls.host(), tls.port());
      ssl.setHandshakeTimeoutMillis(HANDSHAKE_MILLIS); // Netty's 10 s is short for a tracker taking thousands of handshakes on loaded cores
      ch.pipeline().addLast(ssl);
    }
    ch.pipeline().addLast(new HttpClientCodec()).addLast(new HttpObjectAggregator(MAX_ANSWER)).addLast(lane.handler());
  }
}
