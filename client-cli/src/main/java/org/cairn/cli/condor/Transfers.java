package org.cairn.cli.condor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One plug-in invocation's transfers: each input ad with a {@code Url} and a {@code LocalFileName} becomes one
 * {@code cairn fetch} (download) or {@code cairn store} (upload) and one result ad, in the input's order; every file is
 * tried even after one fails (as HTCondor's curl plug-in does), and ads with neither attribute (protocol 4's ads that
 * are not about a file) are passed over.
 */
final class Transfers {
  private static final Pattern SENT = Pattern.compile("\"sentBytes\"\\s*:\\s*(\\d+)");

  private final CommandRunner runner;
  private final GridFlags grid;
  private final Sandbox sandbox;
  private final boolean upload;
  private boolean failed;

  Transfers(CommandRunner runner, GridFlags grid, Sandbox sandbox, boolean upload) {
    this.runner = runner;
    this.grid = grid;
    this.sandbox = sandbox;
    this.upload = upload;
  }

  /** The result ads of {@code inputs}. */
  List<ClassAd> run(List<ClassAd> inputs) {
    List<ClassAd> out = new ArrayList<>();
    for (ClassAd in : inputs) {
      if (!in.has("Url") && !in.has("LocalFileName")) {
        continue;
      }
      out.add(one(in));
    }
    return out;
  }

  /** A failure result for each of {@code inputs} that names a file: none could be tried. */
  static List<ClassAd> refuseAll(List<ClassAd> inputs, boolean upload, Failure why) {
    List<ClassAd> out = new ArrayList<>();
    for (ClassAd in : inputs) {
      if (in.has("Url") || in.has("LocalFileName")) {
        out.add(new ResultAd(text(in, "Url"), text(in, "LocalFileName"), upload ? "upload" : "download", null).failure(why));
      }
    }
    return out;
  }

  /** Whether any transfer failed. */
  boolean failed() {
    return failed;
  }

  private ClassAd one(ClassAd in) {
    ResultAd result = new ResultAd(text(in, "Url"), text(in, "LocalFileName"), upload ? "upload" : "download", grid.tracker());
    String url = in.string("Url");
    String name = in.string("LocalFileName");
    if (url == null || name == null) {
      return failure(result, Failure.parameter("the input ad's " + (url == null ? "Url" : "LocalFileName") + " is missing or not a string"));
    }
    try {
      CairnUrl target = CairnUrl.parse(url);
      result.version(target.version());
      return upload ? upload(result, target, sandbox.source(name)) : download(result, target, sandbox.target(name));
    } catch (CairnUrl.BadUrl | Sandbox.Refused e) {
      return failure(result, Failure.parameter(e.getMessage()));
    } catch (java.nio.file.NoSuchFileException e) {
      return failure(result, Failure.parameter("LocalFileName " + name + ": no such file"));
    } catch (IOException e) {
      return failure(result, Failure.parameter("LocalFileName " + name + ": " + e.getMessage()));
    }
  }

  private ClassAd download(ResultAd result, CairnUrl url, Path file) throws IOException {
    List<String> args = command("fetch", url, "-o", file.toString(), "--json");
    CommandRunner.Result r = runner.run(args);
    result.exitCode(r.code());
    if (r.code() != 0) {
      return failure(result, Failure.of(r));
    }
    long bytes = Files.size(file);
    return result.success(bytes, bytes);
  }

  private ClassAd upload(ResultAd result, CairnUrl url, Path file) throws IOException {
    long bytes = Files.size(file);
    List<String> args = command("store", url, file.toString(), "--json");
    CommandRunner.Result r = runner.run(args);
    if (r.code() != 0 && url.step() > 0 && r.err().contains("already exists")) {
      // the same checkpoint sent again (an upload HTCondor retries): the URL's version is replaced, as a PUT would
      CommandRunner.Result rm = runner.run(command("rm", url));
      r = rm.code() == 0 ? runner.run(args) : rm;
    }
    result.exitCode(r.code());
    if (r.code() != 0) {
      return failure(result, Failure.of(r));
    }
    Matcher m = SENT.matcher(r.out());
    return result.success(bytes, m.find() ? Long.parseLong(m.group(1)) : bytes);
  }

  /**
   * {@code cairn COMMAND --app A --node N [--step S] MORE... GRID-FLAGS}: the grid's flags (inherited by every command)
   * last, so the agent's log line of the command names it before the token file it leaves out.
   */
  private List<String> command(String command, CairnUrl url, String... more) {
    return command(grid, command, url, more);
  }

  static List<String> command(GridFlags grid, String command, CairnUrl url, String... more) {
    List<String> args = new ArrayList<>(List.of(command, "--app", url.app(), "--node", url.node()));
    if (url.step() > 0) {
      args.addAll(List.of("--step", Long.toString(url.step())));
    }
    args.addAll(List.of(more));
    args.addAll(grid.args());
    return args;
  }

  private ClassAd failure(ResultAd result, Failure f) {
    failed = true;
    return result.failure(f);
  }

  /** An attribute as text for the result ad: a string as itself, anything else as written. */
  private static String text(ClassAd ad, String name) {
    ClassAd.Value v = ad.get(name);
    if (v == null) {
      return null;
    }
    return v instanceof ClassAd.Str s ? s.text() : ClassAdWriter.value(v);
  }
}
