package org.cairn.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.cairn.cli.CairnCli;
import org.cairn.cli.context.Session;
import org.cairn.client.store.StoreOptions;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.crypto.ChunkCrypto;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

class StoreFlagsTest {
  private static final String CLIENT = "host-1";

  /** The command line {@code args} parse to (nothing runs). */
  private static CommandLine parsed(String... args) {
    CommandLine cli = CairnCli.commandLine(Session.local(), args);
    CommandLine.ParseResult r = cli.parseArgs(args);
    while (r.hasSubcommand()) {
      r = r.subcommand();
    }
    return r.commandSpec().commandLine();
  }

  /** What the store flags of a parsed store, mount or dmtcp command line give for app/node (the command's own parts). */
  private static StoreOptions options(CommandLine cl, String kind) {
    CommandLine.Model.CommandSpec spec = cl.getCommandSpec();
    if (spec.mixins().containsKey("job")) {
      spec = spec.mixins().get("job"); // dmtcp: launch and restart share JobOptions
    }
    List<UnaryOperator<StoreOptions>> parts = new ArrayList<>();
    for (CommandLine.Model.CommandSpec m : spec.mixins().values()) {
      Object o = m.userObject();
      if (o instanceof StoreFlags f) {
        parts.add(f.shape(cl));
      } else if (o instanceof StoreFlags.Compression c) {
        parts.add(c.shape(cl));
      } else if (o instanceof StoreFlags.Cutting c) {
        parts.add(c.shape(cl));
      } else if (o instanceof StoreFlags.Tuning t) {
        parts.add(t.shape(cl));
      }
    }
    assertThat(parts).as("the command has the StoreFlags mixin").isNotEmpty();
    @SuppressWarnings("unchecked")
    UnaryOperator<StoreOptions>[] all = parts.toArray(UnaryOperator[]::new);
    return StoreFlags.all(cl, all).apply(StoreOptions.defaults("heat", "n0", kind, CLIENT, ChunkCrypto.PLAIN));
  }

  /** The fields a store's flags decide, comparable across instances (codecs compare by spec). */
  private static List<Object> view(StoreOptions o) {
    return List.of(o.app(), o.node(), o.step(), o.redundancy().spec(), o.compressor().spec(), o.chunkSize(), o.threads(), o.placement(),
        o.kind(), o.clientId(), o.writeMode(), String.valueOf(o.probeAfter()), o.commitTimeout(), o.chunking(), String.valueOf(o.set()),
        o.delta(), o.hostWait(), o.crypto().encryption());
  }

  @Test
  void storeMountAndDmtcpWithNoStoreFlagsGiveTheDefaults() {
    StoreOptions defaults = StoreOptions.defaults("heat", "n0", ImageSource.FILE, CLIENT, ChunkCrypto.PLAIN);
    assertThat(view(options(parsed("store", "f", "--app", "heat", "--node", "n0"), ImageSource.FILE))).isEqualTo(view(defaults));
    assertThat(view(options(parsed("mount", "--app", "heat", "/mnt"), ImageSource.FILE))).isEqualTo(view(defaults));
    assertThat(view(options(parsed("dmtcp", "launch", "--app", "heat", "--node", "n0", "--", "a.out"), ImageSource.FILE)))
        .isEqualTo(view(defaults));
  }

  @Test
  void theDefaultsAreWhatTheHelpSays() {
    StoreOptions d = StoreOptions.defaults("heat", "n0", ImageSource.FILE, CLIENT, ChunkCrypto.PLAIN);
    assertThat(d.redundancy().spec()).isEqualTo("code:3+2");
    assertThat(d.compressor().spec()).isEqualTo(org.cairn.core.compress.Compressor.parse("auto").spec());
    assertThat(d.chunkSize()).isEqualTo(1 << 20);
    assertThat(d.placement()).isEqualTo("falcon");
    assertThat(d.writeMode()).isEqualTo("pessimistic");
    assertThat(d.probeAfter()).isEqualTo(Duration.ofMinutes(10));
    assertThat(d.commitTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(d.hostWait()).isEqualTo(Duration.ofSeconds(60));
    assertThat(d.chunking().spec()).isEqualTo("aligned");
    assertThat(d.delta()).isTrue();
    assertThat(d.threads()).isEqualTo(Runtime.getRuntime().availableProcessors());
  }

  @Test
  void theSameSharedFlagsGiveTheSameOptionsFromStoreMountAndDmtcp() {
    String[] shared = {"--redundancy", "replicate:2", "--encryption", "none", "--write", "soft"};
    StoreOptions store = options(parsed(with(new String[] {"store", "f", "--app", "heat", "--node", "n0"}, shared)), ImageSource.FILE);
    StoreOptions mount = options(parsed(with(new String[] {"mount", "--app", "heat", "/mnt"}, shared)), ImageSource.FILE);
    StoreOptions dmtcp = options(parsed(with(new String[] {"dmtcp", "launch", "--app", "heat", "--node", "n0"}, shared, "--", "a.out")),
        ImageSource.FILE);
    assertThat(store.redundancy().spec()).isEqualTo("replicate:2");
    assertThat(store.writeMode()).isEqualTo("soft");
    assertThat(view(mount)).isEqualTo(view(store));
    assertThat(view(dmtcp)).isEqualTo(view(store));
  }

  @Test
  void storesOwnFlagsAllReachTheOptions() {
    StoreOptions o = options(parsed("store", "f", "--app", "heat", "--node", "n0", "--step", "7", "--compression", "zstd:3",
        "--chunk-size", "4MiB", "--chunking", "cdc", "--delta", "off", "--threads", "3", "--placement", "random:5", "--commit-timeout",
        "2m", "--host-wait", "0", "--probe-after", "never", "--write", "optimistic"), ImageSource.FILE);
    assertThat(view(o)).isEqualTo(List.of("heat", "n0", 7L, "code:3+2", "zstd:3", 4 << 20, 3, "random:5", ImageSource.FILE, CLIENT,
        "optimistic", "null", Duration.ofMinutes(2), org.cairn.core.chunk.Chunking.CDC, "null", false, Duration.ZERO,
        org.cairn.core.crypto.Encryption.NONE));
  }

  @Test
  void aSetPartNeedsNoStep() {
    StoreOptions o = options(parsed("store", "f", "--app", "heat", "--node", "n0", "--set", "e1", "--part", "1", "--parts", "4"),
        ImageSource.FILE);
    assertThat(o.set()).isEqualTo(new org.cairn.core.manifest.Manifest.SetPart("e1", 1, 4));
  }

  static Stream<Arguments> badFlags() {
    return Stream.of(
        Arguments.of(new String[] {"--redundancy", "code:0+0"}, "redundancy"),
        Arguments.of(new String[] {"--compression", "lz4"}, "compression must be none, zstd"),
        Arguments.of(new String[] {"--encryption", "rot13"}, "--encryption: encryption must be aes-gcm, aes-siv or none, was 'rot13'"),
        Arguments.of(new String[] {"--write", "eventually"}, "--write must be pessimistic, optimistic or soft, was 'eventually'"),
        Arguments.of(new String[] {"--chunking", "zigzag"}, "zigzag"),
        Arguments.of(new String[] {"--chunk-size", "3"}, "chunk size must be a power of two from 64KiB to 16MiB"),
        Arguments.of(new String[] {"--delta", "maybe"}, "--delta must be on or off, was 'maybe'"),
        Arguments.of(new String[] {"--threads", "0"}, "--threads must be between 1 and 256, was 0"),
        Arguments.of(new String[] {"--threads", "257"}, "--threads must be between 1 and 256, was 257"),
        Arguments.of(new String[] {"--probe-after", "soon"}, "--probe-after: "),
        Arguments.of(new String[] {"--commit-timeout", "x"}, "--commit-timeout: "),
        Arguments.of(new String[] {"--host-wait", "-1s"}, "--host-wait: "),
        Arguments.of(new String[] {"--set", "e1"}, "a part of a checkpoint set needs all of --set EPOCH, --part R and --parts P"),
        Arguments.of(new String[] {"--set", "e1", "--part", "0", "--parts", "2", "--step", "3"}, "--step cannot be given with --set"),
        Arguments.of(new String[] {"--set", "a b", "--part", "0", "--parts", "2"}, "--set must be 1-128 letters"),
        Arguments.of(new String[] {"--set", "e1", "--part", "2", "--parts", "2"}, "--part/--parts: "),
        Arguments.of(new String[] {"--step", "-1"}, "step must be 0 (the next) or more, was -1"));
  }

  @ParameterizedTest
  @MethodSource("badFlags")
  void aBadStoreFlagIsAOneLineUsageErrorNamingIt(String[] bad, String message) {
    CommandLine cl = parsed(with(new String[] {"store", "f", "--app", "heat", "--node", "n0"}, bad));
    assertThatThrownBy(() -> options(cl, ImageSource.FILE)).isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining(message).satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void mountAndDmtcpRefuseABadSharedFlagAsStoreDoes() {
    for (String[] cmd : new String[][] {{"mount", "--app", "heat", "/mnt"}, {"dmtcp", "launch", "--app", "heat", "--node", "n0"}}) {
      CommandLine cl = parsed(with(cmd, new String[] {"--write", "later"}, cmd[0].equals("dmtcp") ? "a.out" : null));
      assertThatThrownBy(() -> options(cl, ImageSource.FILE)).isInstanceOf(CommandLine.ParameterException.class)
          .hasMessage("--write must be pessimistic, optimistic or soft, was 'later'");
    }
  }

  @Test
  void aStoreOptionsNoStoreCanRunWithIsRefusedNamingTheField() {
    StoreOptions d = StoreOptions.defaults("heat", "n0", ImageSource.FILE, CLIENT, ChunkCrypto.PLAIN);
    assertThatThrownBy(() -> d.withPlacement("falcon", 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threads");
    assertThatThrownBy(() -> d.forVersion("n0", 3, ImageSource.FILE).withSet(new org.cairn.core.manifest.Manifest.SetPart("e", 0, 2)))
        .hasMessageContaining("set");
    assertThatThrownBy(() -> d.forVersion(" ", 0, ImageSource.FILE)).hasMessageContaining("node");
    assertThatThrownBy(() -> d.withTimeouts(null, Duration.ofSeconds(-1))).hasMessageContaining("commit timeout");
    assertThatThrownBy(() -> d.withWriteMode("fast")).hasMessageContaining("write must be");
  }

  private static String[] with(String[] head, String[] more, String... tail) {
    List<String> all = new ArrayList<>(List.of(head));
    all.addAll(List.of(more));
    for (String t : tail) {
      if (t != null) {
        all.add(t);
      }
    }
    return all.toArray(String[]::new);
  }
}
