package org.cairn.cli.command;

import java.time.Duration;
import java.util.function.UnaryOperator;
import org.cairn.client.store.StoreOptions;
import org.cairn.core.chunk.ChunkSize;
import org.cairn.core.chunk.Chunking;
import org.cairn.core.compress.Compressor;
import org.cairn.core.config.Durations;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.manifest.Manifest;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The flags that say how a checkpoint is stored, declared once for every command that stores ({@code store},
 * {@code mount}, {@code dmtcp launch|restart}): this mixin has the ones all of them take ({@code --redundancy},
 * {@code --encryption}, {@code --write}); {@link Compression}, {@link Cutting} and {@link Tuning} are the mixins
 * of the flags only some take. Each part checks its flags and gives what they change of {@link StoreOptions#defaults}
 * ({@link #shape}); a bad value is a usage error naming the flag. A command whose help words a flag differently
 * (e.g. "as for 'cairn store'") gives that text under the flag's {@code descriptionKey} in its resource bundle.
 */
public final class StoreFlags {
  /** The {@code descriptionKey}s a command's resource bundle may word differently. */
  public static final String REDUNDANCY_KEY = "store.redundancy";
  public static final String ENCRYPTION_KEY = "store.encryption";
  public static final String WRITE_KEY = "store.write";
  public static final String CHUNKING_KEY = "store.chunking";

  @Option(names = "--redundancy", defaultValue = Redundancy.DEFAULT_SPEC, descriptionKey = REDUNDANCY_KEY,
      description = "code:M+K (Reed-Solomon), cauchy:M+K or replicate:R (default: ${DEFAULT-VALUE}).")
  String redundancy;

  @Option(names = "--encryption", defaultValue = "aes-gcm", paramLabel = "MODE", descriptionKey = ENCRYPTION_KEY,
      description = {"aes-gcm (default) or aes-siv: chunks are encrypted here with the app's key before they leave this "
          + "machine (made on the app's first store; see 'cairn key'); none: store plaintext, readable by every donor."})
  String encryption;

  @Option(names = "--write", defaultValue = StoreOptions.PESSIMISTIC, paramLabel = "MODE", descriptionKey = WRITE_KEY,
      description = {"pessimistic (default): every piece is durable before the store succeeds;",
          "optimistic: success once the m data pieces are durable; the tracker adds the rest in the background "
          + "('cairn versions' shows the status degraded until it has);",
          "soft: success once every piece is in its peer's memory; the peers make them durable in the background "
          + "(within their --soft-sync-interval, 1 s by default; 'cairn versions' shows the status soft until all are; "
          + "a peer that crashes first loses its soft pieces, which repair makes again)."})
  String write;

  /** The sealing {@code --encryption} names (the app key is the command's to find or make). */
  public Encryption encryption(CommandLine cl) {
    try {
      return Encryption.parse(encryption);
    } catch (IllegalArgumentException e) {
      throw usage(cl, "--encryption: " + e.getMessage());
    }
  }

  /** {@code --write} as given (pessimistic, optimistic or soft). */
  public String write() {
    return write;
  }

  /** What {@code --redundancy} and {@code --write} change of the defaults (checked now). */
  public UnaryOperator<StoreOptions> shape(CommandLine cl) {
    Redundancy r;
    try {
      r = Redundancy.parse(redundancy);
    } catch (IllegalArgumentException e) {
      throw usage(cl, e.getMessage());
    }
    encryption(cl);
    if (!write.equals(StoreOptions.PESSIMISTIC) && !write.equals(StoreOptions.OPTIMISTIC) && !write.equals(StoreOptions.SOFT)) {
      throw usage(cl, "--write must be pessimistic, optimistic or soft, was '" + write + "'");
    }
    String mode = write;
    return o -> o.withCoding(r, o.compressor()).withWriteMode(mode);
  }

  /** {@code --compression} ({@code store}, {@code mount}). */
  public static final class Compression {
    @Option(names = "--compression", defaultValue = Compressor.DEFAULT_SPEC,
        description = "none, zstd[:LEVEL], gzip[:LEVEL] or auto (default: ${DEFAULT-VALUE}).")
    String compression;

    /** What {@code --compression} changes of the defaults (checked now; each store gets a compressor of its own). */
    public UnaryOperator<StoreOptions> shape(CommandLine cl) {
      try {
        Compressor.parse(compression);
      } catch (IllegalArgumentException e) {
        throw usage(cl, e.getMessage());
      }
      String spec = compression;
      return o -> o.withCoding(o.redundancy(), Compressor.parse(spec));
    }
  }

  /** {@code --chunking} ({@code store}, {@code dmtcp}). */
  public static final class Cutting {
    @Option(names = "--chunking", defaultValue = "aligned", paramLabel = "fixed|aligned|cdc", descriptionKey = CHUNKING_KEY,
        description = {"How the image is cut: aligned (default) restarts chunks at each memory area of a DMTCP image or ELF core "
            + "file (other files: as fixed); fixed: every chunk --chunk-size; cdc: content-defined, --chunk-size/4 .. 2 x --chunk-size."})
    String chunking;

    /** What {@code --chunking} changes of the defaults (checked now). */
    public UnaryOperator<StoreOptions> shape(CommandLine cl) {
      Chunking c;
      try {
        c = Chunking.parse(chunking);
      } catch (IllegalArgumentException e) {
        throw usage(cl, e.getMessage());
      }
      return o -> o.withChunks(o.chunkSize(), c);
    }
  }

  /** The flags only {@code cairn store} takes: the step or set part, chunk size, delta, threads, placement and timeouts. */
  public static final class Tuning {
    @Option(names = "--step", defaultValue = "0", paramLabel = "STEP",
        description = "Step number to store as (default: the node's next one).")
    long step;

    @Option(names = "--chunk-size", defaultValue = "1MiB", description = "Chunk size, 64KiB..16MiB (default: ${DEFAULT-VALUE}).")
    String chunkSize;

    @Option(names = "--delta", defaultValue = "on", paramLabel = "on|off",
        description = {"on (default): a new chunk of memory (aligned chunks of a DMTCP image or ELF core) is compressed against "
            + "the previous version's chunk at the same address when that is smaller; off: every chunk on its own."})
    String delta;

    @Option(names = "--threads", description = "Worker threads (default: cores).")
    Integer threads;

    @Option(names = "--placement", defaultValue = StoreOptions.DEFAULT_PLACEMENT,
        description = {"falcon (FALCON's ranking over the donors holding under 8x the grid's mean), random[:SEED], "
            + "dedicated:HOST, or pessimistic (FALCON's ranking after probing every donor's bandwidth before the store; a "
            + "baseline for experiments) (default: ${DEFAULT-VALUE})."})
    String placement;

    @Option(names = "--commit-timeout", defaultValue = "30s", paramLabel = "DURATION",
        description = {"Once every piece is stored, keep trying to commit this long while the tracker is unreachable "
            + "(a restart); then give up, leaving no version (default: ${DEFAULT-VALUE})."})
    String commitTimeout;

    @Option(names = "--host-wait", defaultValue = "60s", paramLabel = "DURATION",
        description = {"When placement lacks hosts only because some are BUSY or FULL now, ask again for up to this long before "
            + "failing; 0 fails at once (default: ${DEFAULT-VALUE})."})
    String hostWait;

    @Option(names = "--probe-after", defaultValue = "10m", paramLabel = "DURATION",
        description = {"Probe placed donors whose bandwidth was never measured or was measured longer ago than this, "
            + "then place again (FALCON §3.2.2); 'never' turns probing off (default: ${DEFAULT-VALUE})."})
    String probeAfter;

    @Option(names = "--set", paramLabel = "EPOCH",
        description = {"Store FILE as one part of checkpoint set EPOCH (a checkpoint written on several hosts, e.g. MPI ranks):",
            "the set becomes one version only when all --parts parts are committed; a set left incomplete is dropped "
            + "after the tracker's --set-timeout. Needs --part and --parts."})
    String set;

    @Option(names = "--part", paramLabel = "R", description = "This part's number in the set, 0..P-1.")
    Integer part;

    @Option(names = "--parts", paramLabel = "P", description = "How many parts the set has.")
    Integer parts;

    /** What these flags change of the defaults (checked now). */
    public UnaryOperator<StoreOptions> shape(CommandLine cl) {
      int chunk;
      try {
        chunk = ChunkSize.parse(chunkSize);
      } catch (IllegalArgumentException e) {
        throw usage(cl, e.getMessage());
      }
      if (!delta.equals("on") && !delta.equals("off")) {
        throw usage(cl, "--delta must be on or off, was '" + delta + "'");
      }
      Duration probe = probeAfter.equals("never") ? null : duration(cl, "--probe-after", probeAfter);
      Duration commitWait = duration(cl, "--commit-timeout", commitTimeout);
      Duration hostWaitFor = duration(cl, "--host-wait", hostWait);
      Manifest.SetPart setPart = setPart(cl);
      int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
      if (t < 1 || t > StoreOptions.MAX_THREADS) {
        throw usage(cl, "--threads must be between 1 and " + StoreOptions.MAX_THREADS + ", was " + t);
      }
      long at = step;
      boolean deltaOn = delta.equals("on");
      String where = placement;
      return o -> o.forVersion(o.node(), at, o.kind()).withChunks(chunk, o.chunking()).withDelta(deltaOn).withPlacement(where, t)
          .withTimeouts(probe, commitWait).withHostWait(hostWaitFor).withSet(setPart);
    }

    /** {@code --part}, or null outside a set. */
    public Integer part() {
      return part;
    }

    /** The set part --set/--part/--parts name (all three or none); null for a plain version. */
    private Manifest.SetPart setPart(CommandLine cl) {
      if (set == null && part == null && parts == null) {
        return null;
      }
      if (set == null || part == null || parts == null) {
        throw usage(cl, "a part of a checkpoint set needs all of --set EPOCH, --part R and --parts P");
      }
      if (step != 0) {
        throw usage(cl, "--step cannot be given with --set: the tracker numbers the set's version when its last part commits");
      }
      if (!set.matches("[A-Za-z0-9._+-]{1,128}")) {
        throw usage(cl, "--set must be 1-128 letters, digits, '.', '_', '+' or '-', was '" + set + "'");
      }
      try {
        return new Manifest.SetPart(set, part, parts);
      } catch (IllegalArgumentException e) {
        throw usage(cl, "--part/--parts: " + e.getMessage());
      }
    }
  }

  private static Duration duration(CommandLine cl, String flag, String text) {
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw usage(cl, flag + ": " + e.getMessage());
    }
  }

  /**
   * {@code base} shaped by each part in turn (null parts: the command lacks those flags), checked as a whole: a
   * combination no store can run with is a usage error too.
   */
  @SafeVarargs
  public static UnaryOperator<StoreOptions> all(CommandLine cl, UnaryOperator<StoreOptions>... parts) {
    return base -> {
      StoreOptions o = base;
      for (UnaryOperator<StoreOptions> p : parts) {
        try {
          o = p.apply(o);
        } catch (IllegalArgumentException e) {
          throw usage(cl, e.getMessage());
        }
      }
      return o;
    };
  }

  private static CommandLine.ParameterException usage(CommandLine cl, String message) {
    return new CommandLine.ParameterException(cl, message);
  }
}
