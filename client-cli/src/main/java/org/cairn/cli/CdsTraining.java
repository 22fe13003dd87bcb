package org.cairn.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.cairn.cli.agent.wire.AgentClient;
import org.cairn.cli.startup.Warmup;

/**
 * The build's training run for {@code target/cairn.jsa} (AppCDS): the classes a thin command loads
 * (it finds no agent here), those of a client command that opens a grid and finds no tracker, and
 * those a store or fetch in a new process loads before its first byte moves: Tink and the chunk path
 * (the agent's {@link Warmup} on a few chunks), the store and fetch pipelines over a small generated
 * memory image, Jackson's record binding, and Netty's client channel (a connection refused on
 * loopback), and the classes a list made on a real grid names ({@link #listed}). A one-shot store loaded
 * 1,700 classes from the jar with the thin-only archive, ~400 (half of them picocli's) before the list.
 * Nothing is stored or contacted beyond this host's loopback; the commands fail at once.
 */
public final class CdsTraining {
  private CdsTraining() {}

  /** A record to bind, as the tracker's answers are bound. */
  public record Sample(String app, long step, List<String> holders, java.util.Map<String, Integer> counts) {}

  /** @param args a token file (any well-formed token) */
  public static void main(String[] args) throws Exception {
    AgentClient.run(Path.of("/nonexistent", "cairn-cds-training.sock"), List.of("versions", "--app", "a", "--node", "n"), false);
    java.io.PrintStream realErr = System.err;
    System.setErr(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
    try {
      CairnCli.run("--tracker", "http://127.0.0.1:9", "--token-file", args[0], "versions", "--app", "a", "--node", "n");
    } finally {
      System.setErr(realErr);
    }
    Warmup.run(4, Duration.ofSeconds(10));
    pipelines();
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    Sample s = json.readValue(json.writeValueAsBytes(new Sample("a", 1, List.of("p1"), java.util.Map.of("x", 1))), Sample.class);
    if (s.step() != 1) {
      throw new IllegalStateException("training record did not round-trip");
    }
    listed();
    io.netty.channel.nio.NioEventLoopGroup group = new io.netty.channel.nio.NioEventLoopGroup(1);
    try {
      org.cairn.core.net.PeerConnection.connect(group, "127.0.0.1:9", org.cairn.core.security.GridToken.of(org.cairn.core.security.GridToken.generate()), Duration.ofSeconds(2))
          .handle((c, e) -> null).get();
    } finally {
      group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  /**
   * Loads (without initialising) every class named in cds-classes.txt: those one-command stores, a fetch,
   * {@code versions} and {@code verify} on a real grid loaded that the runs above do not
   * (it/tools/cds-classes.sh makes the list). A name no longer on the class path is skipped.
   */
  private static void listed() throws java.io.IOException {
    ClassLoader loader = CdsTraining.class.getClassLoader();
    try (java.io.InputStream in = loader.getResourceAsStream("cds-classes.txt")) {
      if (in == null) {
        return;
      }
      for (String name : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
        if (!name.isBlank()) {
          try {
            Class.forName(name.strip(), false, loader);
          } catch (ClassNotFoundException | LinkageError e) {
            // renamed or removed since the list was made
          }
        }
      }
    }
  }

  /** A generated image through the store pipeline (aligned chunks, sealed, coded) and back through the fetch pipeline. */
  private static void pipelines() throws Exception {
    org.cairn.core.crypto.ChunkCrypto crypto = org.cairn.core.crypto.AppKey.generate("cairn-cds", java.time.Instant.now())
        .crypto(org.cairn.core.crypto.Encryption.parse("aes-gcm"));
    org.cairn.core.pipeline.ChunkCodec codec = new org.cairn.core.pipeline.ChunkCodec(
        org.cairn.core.compress.Compressor.parse(org.cairn.core.compress.Compressor.DEFAULT_SPEC),
        org.cairn.core.erasure.Redundancy.parse(org.cairn.core.erasure.Redundancy.DEFAULT_SPEC), crypto);
    byte[] image = org.cairn.core.image.MemoryImages.image(7, 4 << 20);
    java.util.Map<Long, org.cairn.core.fragment.Fragment[]> stored = new java.util.concurrent.ConcurrentHashMap<>();
    org.cairn.core.pipeline.StoreResult r = new org.cairn.core.pipeline.StorePipeline(codec,
        org.cairn.core.chunk.Chunking.DEFAULT, 1 << 20, 2, 4).store(new ByteArrayInputStream(image),
        org.cairn.core.pipeline.StorePipeline.DedupIndex.NONE, stored::put);
    List<org.cairn.core.manifest.ChunkRef> refs = r.chunks();
    java.util.Map<org.cairn.core.hash.ChunkId, org.cairn.core.fragment.Fragment[]> byId = new java.util.HashMap<>();
    for (int i = 0; i < refs.size(); i++) {
      if (stored.containsKey((long) i)) {
        byId.put(refs.get(i).id(), stored.get((long) i));
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new org.cairn.core.pipeline.FetchPipeline(2, 4, org.cairn.core.pipeline.FetchPipeline.REPEAT_CACHE_BYTES, crypto)
        .fetch(refs, (index, ref) -> byId.get(ref.id()), out);
    if (!java.util.Arrays.equals(out.toByteArray(), image)) {
      throw new IllegalStateException("training image did not round-trip");
    }
  }
}
