package org.cairn.cli.command;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.cairn.cli.context.AppCrypto;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Target;
import org.cairn.client.keys.AppKeys;
import org.cairn.core.crypto.AppKey;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code cairn key create|export|import|list}: the app keys that encrypt checkpoints on this client. */
@Command(name = "key", header = "Manage app keys: chunks are encrypted on this client with them.", mixinStandardHelpOptions = true,
    description = {"Manage app keys. Each app's chunks are encrypted on this client with the app's key before they leave it; "
        + "the tracker and the donors never see it. A lost key means the app's checkpoints are lost: export a copy.",
        "Keys live in --key-dir, $CAIRN_KEY_DIR or ~/.config/cairn/keys (one APP.json each, mode 0600)."},
    subcommands = {KeyCommand.Create.class, KeyCommand.Export.class, KeyCommand.Import.class, KeyCommand.ListKeys.class})
public final class KeyCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  Root root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(), "use 'key create', 'key export', 'key import' or 'key list'");
  }

  @Command(name = "create", mixinStandardHelpOptions = true, description = "Make a new key for an app (never replaces one).")
  static final class Create implements Callable<Integer> {
    @CommandLine.ParentCommand
    KeyCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    Target.App target;

    @Override
    public Integer call() throws Exception {
      AppKeys keys = parent.root.keys();
      AppKey key;
      try {
        key = keys.create(target.app, Instant.now());
      } catch (FileAlreadyExistsException e) {
        throw new IllegalStateException("app " + target.app + " already has a key in " + keys.path(target.app) + "; not replaced");
      }
      spec.commandLine().getOut().println("created key " + key.fingerprint() + " for app " + target.app + " in " + keys.path(target.app));
      spec.commandLine().getOut().flush();
      AppCrypto.warn(spec.commandLine().getErr(), "the key of app " + target.app + " is in", keys.path(target.app));
      return 0;
    }
  }

  @Command(name = "export", mixinStandardHelpOptions = true,
      description = "Print an app's key file (or write it to -o FILE, mode 0600) to keep a copy or move it to another client.")
  static final class Export implements Callable<Integer> {
    @CommandLine.ParentCommand
    KeyCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    Target.App target;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write here instead of standard output (not overwritten).")
    Path output;

    @Override
    public Integer call() throws Exception {
      AppKeys keys = parent.root.keys();
      AppKey key = keys.find(target.app).orElseThrow(
          () -> new IllegalStateException("app " + target.app + " has no key in " + keys.dir()));
      if (output == null) {
        spec.commandLine().getOut().print(key.toJson());
        spec.commandLine().getOut().flush();
        return 0;
      }
      try {
        // 0600 from its creation, synced, linked into place: never readable by others, never half written
        org.cairn.client.keys.PrivateDirs.writeSecret(output, key.toJson().getBytes(StandardCharsets.UTF_8), false);
      } catch (FileAlreadyExistsException e) {
        throw new IllegalStateException(output + " exists; not overwritten");
      }
      spec.commandLine().getOut().println("exported key " + key.fingerprint() + " of app " + target.app + " to " + output);
      spec.commandLine().getOut().flush();
      AppCrypto.warn(spec.commandLine().getErr(), "this file holds the secret key of app " + target.app + ":", output);
      return 0;
    }
  }

  @Command(name = "import", mixinStandardHelpOptions = true,
      description = {"Install an exported key file as an app's key. An app's existing different key is replaced only with "
          + "--force (the versions stored with it need it: export it first)."})
  static final class Import implements Callable<Integer> {
    @CommandLine.ParentCommand
    KeyCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    Target.App target;

    @Parameters(index = "0", paramLabel = "FILE", description = "A key file written by 'cairn key export'.")
    Path file;

    @Option(names = "--force", description = "Replace the app's existing, different key.")
    boolean force;

    @Override
    public Integer call() throws Exception {
      AppKeys keys = parent.root.keys();
      AppKey key = AppKey.fromJson(Files.readString(file, StandardCharsets.UTF_8), file.toString());
      Optional<AppKey> before = keys.find(target.app);
      boolean written;
      try {
        written = keys.importKey(target.app, key, force);
      } catch (FileAlreadyExistsException e) {
        throw new IllegalStateException(e.getReason());
      }
      PrintWriter out = spec.commandLine().getOut();
      if (!written) {
        out.println("app " + target.app + " already has key " + key.fingerprint() + "; nothing changed");
      } else if (before.isPresent()) {
        out.println("replaced key " + before.get().fingerprint() + " of app " + target.app + " with " + key.fingerprint() + " in "
            + keys.path(target.app));
      } else {
        out.println("imported key " + key.fingerprint() + " for app " + target.app + " into " + keys.path(target.app));
      }
      out.flush();
      return 0;
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List the apps with a key here and their fingerprints.")
  static final class ListKeys implements Callable<Integer> {
    @CommandLine.ParentCommand
    KeyCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      AppKeys keys = parent.root.keys();
      PrintWriter out = spec.commandLine().getOut();
      for (String app : keys.apps()) {
        AppKey key = keys.find(app).orElseThrow();
        out.println(app + "  " + key.fingerprint() + "  created " + key.created() + "  " + keys.path(app));
      }
      out.flush();
      return 0;
    }
  }
}
