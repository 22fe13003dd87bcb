package org.cairn.core.config;

import java.net.InetSocketAddress;

/** {@code HOST:PORT} listen and connect addresses, validated with the bad value in the message. */
public final class HostPort {
  private final String host;
  private final int port;

  private HostPort(String host, int port) {
    this.host = host;
    this.port = port;
  }

  /** Parses {@code host:port} or {@code [v6]:port}; port 0 means "any free port" for listeners. */
  public static HostPort parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("address is missing (use HOST:PORT, e.g. 127.0.0.1:7600)");
    }
    String s = text.trim();
    int colon = s.lastIndexOf(':');
    if (colon <= 0 || colon == s.length() - 1) {
      throw new IllegalArgumentException("address must be HOST:PORT, was '" + text + "'");
    }
    String host = s.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(s.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("port must be a number, was '" + s.substring(colon + 1) + "' in '" + text + "'", e);
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be between 0 and 65535, was " + port);
    }
    return new HostPort(host, port);
  }

  public String host() {
    return host;
  }

  public int port() {
    return port;
  }

  public InetSocketAddress toSocketAddress() {
    return new InetSocketAddress(host, port);
  }

  @Override
  public String toString() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
