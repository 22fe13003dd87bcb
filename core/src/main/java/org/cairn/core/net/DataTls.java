package org.cairn.core.net;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLException;
import org.cairn.core.security.PinnedTrust;

/**
 * TLS contexts of the data plane (a grid whose tracker runs with {@code --tls}): a peer serves with
 * the certificate the tracker's CA gave it at registration; clients and peers connecting to it
 * trust that CA alone (the pin their token carries) and require the certificate to name the address
 * they dialled, and the peer id they dial when they know it ({@link PeerConnection}). Through OpenSSL (BoringSSL, netty-tcnative) where the platform has it, else the JDK.
 */
public final class DataTls {
  private DataTls() {}

  /**
   * Plaintext bytes the TLS handler takes from its queue in one pass ({@link io.netty.handler.ssl.SslHandler#setWrapDataSize}):
   * it still asks the engine for one 16 KiB record at a time, but into one output buffer, written once. At netty's
   * default (16 KiB a pass) every record a store sends had its own buffer allocated, written and released, run
   * interpreted or by C1 in a JVM that lives for one command: a TLS store's extra client CPU went from +0.73 to +0.40 s
   * (docs/benchmarks/journal.md, "TLS by default"). 16384 is netty's own.
   */
  public static final int DEFAULT_WRAP_BYTES = 256 * 1024;

  /** The system property that sets the wrap size of a process that does not set its own ({@link #wrapBytes()}). */
  public static final String WRAP_BYTES_PROPERTY = "cairn.tls.wrapBytes";

  /**
   * The process's wrap size: {@code -Dcairn.tls.wrapBytes}, else {@link #DEFAULT_WRAP_BYTES}. The one place the
   * property is read: the peer's root reads it into its config; a client's connections use it as it is.
   */
  public static int wrapBytes() {
    return Integer.getInteger(WRAP_BYTES_PROPERTY, DEFAULT_WRAP_BYTES);
  }

  /** A TLS handler for a data-plane channel from {@code context}, wrapping {@link #wrapBytes()} at a time. */
  public static io.netty.handler.ssl.SslHandler handler(SslContext context, io.netty.buffer.ByteBufAllocator alloc, String host,
      int port) {
    return handler(context, alloc, host, port, ProcessDefault.WRAP_BYTES);
  }

  /** A TLS handler for a data-plane channel from {@code context}, wrapping {@code wrapBytes} at a time. */
  public static io.netty.handler.ssl.SslHandler handler(SslContext context, io.netty.buffer.ByteBufAllocator alloc, String host,
      int port, int wrapBytes) {
    io.netty.handler.ssl.SslHandler h = host == null ? context.newHandler(alloc) : context.newHandler(alloc, host, port);
    h.setWrapDataSize(wrapBytes);
    return h;
  }

  /** {@link #wrapBytes()}, read once, when the first connection without a size of its own is set up. */
  private static final class ProcessDefault {
    static final int WRAP_BYTES = wrapBytes();
  }

  public static SslProvider provider() {
    return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
  }

  /** What a log line says TLS runs through. */
  public static String describe() {
    return provider() == SslProvider.OPENSSL ? "OpenSSL (" + OpenSsl.versionString() + ")" : "the JDK";
  }

  /**
   * Does a new process's one-time TLS set-up ahead (loading BoringSSL and its classes, 0.2-0.25 s of one core in a
   * new JVM): a command's preload thread calls it while the main thread does other work, so its first connection to
   * a donor finds it done. Harmless when OpenSSL is missing (the JDK is used then).
   */
  public static void prepare() {
    if (provider() == SslProvider.OPENSSL) {
      try {
        // with a trust manager as the command's own context has one: without it, netty loads the JDK's default trust
        // store (its ~140 CA certificates parsed) for a context nothing connects with
        SslContextBuilder.forClient().sslProvider(SslProvider.OPENSSL).trustManager(new PinnedTrust("0".repeat(64), true))
            .protocols("TLSv1.3", "TLSv1.2").endpointIdentificationAlgorithm(null).build();
      } catch (SSLException e) {
        // the command's own context reports the same error where it is used
      }
    }
  }

  /** The connecting side: trusts only the pinned CA, and a certificate only for the host it names. */
  public static SslContext client(String caPin) {
    try {
      return SslContextBuilder.forClient().sslProvider(provider()).trustManager(new PinnedTrust(caPin, true))
          .protocols("TLSv1.3", "TLSv1.2").endpointIdentificationAlgorithm(null).build();
    } catch (SSLException e) {
      throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  /** A peer's serving side: its key and certificate, then the CA's. */
  public static SslContext server(PrivateKey key, X509Certificate... chain) throws SSLException {
    return SslContextBuilder.forServer(key, chain).sslProvider(provider()).protocols("TLSv1.3", "TLSv1.2").build();
  }
}
