package org.cairn.cli.condor;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * {@code cairn_plugin}'s entry point: HTCondor's file-transfer plug-in protocol, version 2
 * (docs/apis/file-transfer-plugins in HTCondor's manual), and its checkpoint clean-up plug-in.
 * <ul>
 *   <li>{@code -classad}: the plug-in's capabilities on standard output, exit 0;</li>
 *   <li>{@code -infile F -outfile G [-upload]}: the transfers F's ads ask for, one result ad each into G (which HTCondor
 *       pre-allocates: it is overwritten from the start and padded with spaces, never truncated); exit 0 when every
 *       one succeeded, 1 otherwise (HTCondor gives other codes no meaning; whether to retry is in each result's
 *       {@code TransferErrorData});</li>
 *   <li>{@code -from BASE -delete FILE -jobad AD}: the clean-up ({@link Cleanup}).</li>
 * </ul>
 * {@code -tracker URL}, {@code -token-file F} and {@code -key-dir D} name the grid ({@link GridFlags}).
 */
public final class CondorPlugin {
  /** An input file larger than this is not read (HTCondor writes a few hundred bytes per file). */
  static final long MAX_INPUT = 64L << 20;
  /** Beyond this, an output file longer than what is written is truncated instead of padded. */
  private static final long MAX_PAD = 1L << 20;
  private static final Set<String> FLAGS = Set.of("classad", "upload", "diagnostic", "ignore-missing-files", "help");
  private static final Set<String> VALUED = Set.of("infile", "outfile", "from", "delete", "file", "jobad", "tracker", "token-file", "key-dir");

  private CondorPlugin() {}

  public static void main(String[] args) {
    int code = run(args, System.getenv(), System.out, System.err);
    System.out.flush();
    System.exit(code);
  }

  /** Runs the plug-in with these arguments and environment; returns its exit code (for tests and embedding). */
  public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    Map<String, String> opts = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String name = a.startsWith("--") ? a.substring(2) : a.startsWith("-") ? a.substring(1) : "";
      if (FLAGS.contains(name)) {
        opts.put(name, "");
      } else if (VALUED.contains(name) && i + 1 < args.length) {
        opts.put(name, args[++i]);
      } else {
        err.println("cairn_plugin: unexpected argument '" + a + "'");
        usage(err);
        return 1;
      }
    }
    if (opts.containsKey("help")) {
      usage(out);
      return 0;
    }
    if (opts.containsKey("classad")) {
      out.print(capabilities());
      return 0;
    }
    try {
      if (opts.containsKey("from")) {
        return cleanup(opts, env, out);
      }
      if (opts.containsKey("infile") && opts.containsKey("outfile")) {
        return transfer(opts, env, err);
      }
    } catch (IOException e) {
      err.println("cairn_plugin: " + e.getMessage());
      return 1;
    }
    err.println("cairn_plugin: give -classad, -infile F -outfile G [-upload], or -from URL -delete FILE -jobad AD");
    usage(err);
    return 1;
  }

  /** The {@code -classad} answer, in the old (long) form HTCondor reads it in. */
  static String capabilities() {
    return ClassAdWriter.writeOld(new ClassAd().put("MultipleFileSupport", true).put("PluginVersion", version())
        .put("PluginType", "FileTransfer").put("ProtocolVersion", 2).put("SupportedMethods", CairnUrl.SCHEME));
  }

  private static int transfer(Map<String, String> opts, Map<String, String> env, PrintStream err) throws IOException {
    Path infile = Path.of(opts.get("infile")).toAbsolutePath();
    Path outfile = Path.of(opts.get("outfile"));
    boolean upload = opts.containsKey("upload");
    List<ClassAd> inputs;
    try {
      if (Files.size(infile) > MAX_INPUT) {
        throw new IOException("input file " + infile + " is larger than " + (MAX_INPUT >> 20) + " MiB");
      }
      inputs = ClassAdParser.parseSequence(new String(Files.readAllBytes(infile), StandardCharsets.UTF_8));
    } catch (IOException | ClassAdParser.Malformed e) {
      String why = "cannot read the input file " + infile + ": " + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage());
      err.println("cairn_plugin: " + why);
      write(outfile, ClassAdWriter.write(new ResultAd(null, null, upload ? "upload" : "download", null).failure(Failure.parameter(why))));
      return 1;
    }
    String jobAd = env.get("_CONDOR_JOB_AD");
    List<ClassAd> results;
    boolean failed;
    try (CommandRunner runner = CommandRunner.forEnvironment(env)) {
      Sandbox sandbox = new Sandbox(infile.getParent());
      GridFlags grid = GridFlags.resolve(opts, jobAd != null && Files.isRegularFile(Path.of(jobAd)) ? Path.of(jobAd) : null, sandbox.root());
      Transfers transfers = new Transfers(runner, grid, sandbox, upload);
      results = transfers.run(inputs);
      failed = transfers.failed();
    } catch (IOException e) {
      // no sandbox or no job ad to read: every file still gets its result ad saying why
      results = Transfers.refuseAll(inputs, upload, Failure.parameter(e.getMessage()));
      failed = true;
    }
    for (ClassAd r : results) {
      if (r.get("TransferSuccess") instanceof ClassAd.Bool b && !b.value()) {
        err.println("cairn_plugin: " + r.string("TransferUrl") + ": " + r.string("TransferError"));
      }
    }
    write(outfile, ClassAdWriter.writeAll(results));
    return failed ? 1 : 0;
  }

  private static int cleanup(Map<String, String> opts, Map<String, String> env, PrintStream out) throws IOException {
    String file = opts.containsKey("delete") ? opts.get("delete") : opts.get("file");
    if (file == null) {
      out.println("cairn_plugin: -from needs -delete FILE");
      return 1;
    }
    String jobAd = opts.get("jobad");
    GridFlags grid = GridFlags.resolve(opts, jobAd != null && Files.isRegularFile(Path.of(jobAd)) ? Path.of(jobAd) : null, null);
    try (CommandRunner runner = CommandRunner.forEnvironment(env)) {
      return new Cleanup(runner, grid, out).run(opts.get("from"), file);
    }
  }

  /**
   * Writes {@code text} over the start of {@code file} without truncating it (HTCondor pre-allocates the output file so
   * the plug-in can report a full disk); what was there beyond is overwritten with spaces.
   */
  static void write(Path file, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.CREATE)) {
      long old = ch.size();
      ByteBuffer b = ByteBuffer.wrap(bytes);
      long at = 0;
      while (b.hasRemaining()) {
        at += ch.write(b, at);
      }
      if (old > at && old - at > MAX_PAD) {
        ch.truncate(at);
      } else if (old > at) {
        byte[] spaces = new byte[(int) (old - at)];
        java.util.Arrays.fill(spaces, (byte) ' ');
        ByteBuffer s = ByteBuffer.wrap(spaces);
        while (s.hasRemaining()) {
          at += ch.write(s, at);
        }
      }
      ch.force(true);
    }
  }

  /** This build's version (cairn-version.properties), or "unknown". */
  static String version() {
    Properties p = new Properties();
    try (InputStream in = CondorPlugin.class.getResourceAsStream("/cairn-version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // the version is for the logs only
    }
    return p.getProperty("version", "unknown");
  }

  private static void usage(PrintStream s) {
    s.println("Usage: cairn_plugin -classad");
    s.println("       cairn_plugin -infile <input-filename> -outfile <output-filename> [-upload]");
    s.println("       cairn_plugin [-tracker URL] [-token-file F] [-key-dir D] -from <URL> -delete <FILE> -jobad <AD> [-ignore-missing-files]");
    s.println("HTCondor's file-transfer plug-in for cairn://APP/PATH URLs (docs/operations.md, \"HTCondor\").");
  }
}
