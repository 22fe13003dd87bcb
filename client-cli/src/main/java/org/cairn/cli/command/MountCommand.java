package org.cairn.cli.command;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.cairn.cli.context.AppCrypto;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Target;
import org.cairn.client.Grid;
import org.cairn.client.mount.CairnFs;
import org.cairn.client.store.StoreOptions;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.crypto.Encryption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code cairn mount}: an app's checkpoints as a file system, in the foreground until unmounted. */
@Command(name = "mount", mixinStandardHelpOptions = true, resourceBundle = "org.cairn.cli.command.MountCommand$Help",
    description = {"Mount an app's checkpoints at DIR as a file system (FUSE), in the foreground.",
        "'fusermount3 -u DIR', SIGTERM or Ctrl-C unmount it. DIR/NODE/ lists the node's versions by step and 'latest'; a file copied into DIR/NODE/ is stored as a new version "
        + "when it is closed (nothing is visible before; a writer killed first leaves no version); a directory written as "
        + "DIR/NODE/.new-STEP/ and renamed to DIR/NODE/STEP is stored as one directory version; 'rm DIR/NODE/STEP' deletes "
        + "a version; 'df DIR' shows the grid's donated space. Needs /dev/fuse and libfuse 2 (Debian: libfuse2, fuse3)."})
public final class MountCommand implements java.util.concurrent.Callable<Integer> {
  @CommandLine.ParentCommand
  Root root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin
  Target.App target;

  @Parameters(index = "0", paramLabel = "DIR", description = "An existing empty directory to mount on.")
  Path mountPoint;

  @CommandLine.Mixin
  StoreFlags flags;

  @CommandLine.Mixin
  StoreFlags.Compression compression;

  @Option(names = "--cache-dir", paramLabel = "DIR",
      description = "Where versions being read and directories being written are kept (default: a new temporary directory).")
  Path cacheDir;

  @Option(names = "--allow-other", description = "Let other local users use the mount (FUSE allow_other, with default_permissions: the files are yours and their modes apply, so others read versions but write nothing).")
  boolean allowOther;

  @Override
  public Integer call() throws Exception {
    CommandLine cl = spec.commandLine();
    UnaryOperator<StoreOptions> shape = StoreFlags.all(cl, flags.shape(cl), compression.shape(cl));
    Encryption sealing = flags.encryption(cl);
    Path dir = Path.of(root.session().path(mountPoint.toString())).toAbsolutePath().normalize();
    if (!Files.isDirectory(dir)) {
      throw new CommandLine.ParameterException(cl, dir + ": " + (Files.exists(dir) ? "not a directory" : "no such directory"));
    }
    String noFuse = fuseMissing();
    if (noFuse != null) {
      throw new IOException(noFuse);
    }
    boolean temporary = cacheDir == null;
    Path cache = temporary ? Files.createTempDirectory("cairn-mount-")
        : org.cairn.client.keys.PrivateDirs.ensure(cacheDir); // fetched versions in plaintext: 0700
    ExecutorService workers = Executors.newCachedThreadPool(daemon());
    // SIGTERM: the hook unmounts, then waits until this command has closed the grid and removed its cache
    CountDownLatch finished = new CountDownLatch(1);
    try (Grid grid = GridAccess.open(root, cl)) {
      ChunkCrypto crypto = AppCrypto.of(root, cl, target.app, sealing);
      String client = StoreCommand.clientId();
      MountedGrid.PerVersion options = (node, step, kind) -> shape.apply(StoreOptions.defaults(target.app, node, kind, client, crypto))
          .forVersion(node, step, kind);
      MountedGrid mounted = new MountedGrid(grid, target.app, options, root.keys());
      CairnFs fs;
      try {
        fs = new CairnFs(mounted, cache, workers, () -> {
          cl.getOut().printf("mounted %s at %s; 'fusermount3 -u %s' or SIGTERM unmounts%n", target.app, dir, dir);
          cl.getOut().flush();
        });
      } catch (LinkageError | RuntimeException e) {
        throw new IOException("cannot load libfuse 2 (" + e.getMessage() + "); Debian: apt-get install libfuse2 fuse3", e);
      }
      Thread hook = new Thread(() -> {
        unmount(dir);
        try {
          finished.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "cairn-unmount");
      Runtime.getRuntime().addShutdownHook(hook);
      fs.mount(dir, true, false, fuseOptions(dir));
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // SIGTERM: the hook has unmounted; the JVM exits once it returns
      }
      cl.getOut().println("unmounted " + dir);
      cl.getOut().flush();
      return 0;
    } finally {
      workers.shutdownNow();
      try {
        if (temporary) {
          org.apache.commons.io.file.PathUtils.deleteDirectory(cache);
        }
      } finally {
        finished.countDown();
      }
    }
  }

  private String[] fuseOptions(Path dir) {
    return new String[] {"-o", fuseOptions(target.app, allowOther)};
  }

  /**
   * The FUSE mount options. With {@code allowOther}, {@code default_permissions} too: the kernel then
   * checks every access against the modes and owner (the mounting user) the file system reports,
   * so other local users get only what the modes give them (without it FUSE checks nothing).
   */
  static String fuseOptions(String app, boolean allowOther) {
    return "fsname=cairn:" + app + ",subtype=cairn,big_writes,max_write=131072,max_read=131072"
        + (allowOther ? ",allow_other,default_permissions" : "");
  }

  /** Why FUSE cannot work here, or null. */
  private static String fuseMissing() {
    if (!Files.exists(Path.of("/dev/fuse"))) {
      return "cairn mount needs /dev/fuse (the fuse kernel module; in a container, --device /dev/fuse)";
    }
    return null;
  }

  /** Unmounts {@code dir} (SIGTERM or Ctrl-C): the FUSE loop then ends and mount returns. */
  static void unmount(Path dir) {
    for (String tool : new String[] {"fusermount3", "fusermount"}) {
      try {
        Process p = new ProcessBuilder(tool, "-u", "-z", dir.toString()).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0) {
          return;
        }
      } catch (IOException e) {
        // try the next tool
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static java.util.concurrent.ThreadFactory daemon() {
    java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "mount-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** How mount words the store flags it shares with {@code cairn store} ({@link StoreFlags}). */
  public static final class Help extends java.util.ListResourceBundle {
    @Override
    protected Object[][] getContents() {
      return new Object[][] {
          {StoreFlags.REDUNDANCY_KEY,
              "How versions written here are stored: code:M+K, cauchy:M+K or replicate:R (default: ${DEFAULT-VALUE})."},
          {StoreFlags.ENCRYPTION_KEY, "aes-gcm (default), aes-siv or none, as for 'cairn store'."},
          {StoreFlags.WRITE_KEY, "pessimistic (default), optimistic or soft, as for 'cairn store'."}};
    }
  }
}
