package org.cairn.cli.condor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Where a transfer may read and write: the job's sandbox, the directory HTCondor writes the plug-in's input file in
 * ({@code IWD/.cairn_plugin.in}) and names every {@code LocalFileName} under (an absolute path there, with the
 * subdirectories of a checkpoint's files). A name with a {@code ..} segment, a path outside the sandbox, the sandbox itself,
 * or a path that reaches outside it through a symbolic link is refused, so a hostile input ad can neither write nor read
 * a file elsewhere; a download makes the missing directories of its file (inside the sandbox).
 */
final class Sandbox {
  /** A local file name the plug-in will not use, and why. */
  static final class Refused extends IOException {
    Refused(String message) {
      super(message);
    }
  }

  private final Path root;

  Sandbox(Path root) throws IOException {
    this.root = root.toAbsolutePath().normalize().toRealPath();
  }

  Path root() {
    return root;
  }

  /** {@code name} (absolute, or relative to the sandbox) as a path in the sandbox, or {@link Refused}. */
  Path resolve(String name) throws Refused {
    if (name == null || name.isEmpty() || name.indexOf('\0') >= 0) {
      throw new Refused("LocalFileName is empty or holds a NUL character");
    }
    for (String seg : name.split("/", -1)) {
      if (seg.equals("..")) {
        throw new Refused("LocalFileName " + name + " has a '..' segment");
      }
    }
    Path p;
    try {
      p = root.resolve(name).normalize();
    } catch (java.nio.file.InvalidPathException e) {
      throw new Refused("LocalFileName " + name + " is not a path (" + e.getReason() + ")");
    }
    if (!p.startsWith(root) || p.equals(root)) {
      throw new Refused("LocalFileName " + name + " is outside the job's sandbox " + root);
    }
    return p;
  }

  /** The file to upload: a regular file in the sandbox, not reached through a link that leaves it. */
  Path source(String name) throws IOException {
    Path p = resolve(name);
    if (!Files.exists(p)) {
      throw new java.nio.file.NoSuchFileException(p.toString());
    }
    if (!p.toRealPath().startsWith(root)) {
      throw new Refused("LocalFileName " + name + " leads outside the job's sandbox through a symbolic link");
    }
    if (!Files.isRegularFile(p)) {
      throw new Refused("LocalFileName " + name + " is not a regular file");
    }
    return p;
  }

  /**
   * The file to download to: its directory made where missing, every directory on the way a real one in the sandbox
   * (not a link), and the file itself not a directory.
   */
  Path target(String name) throws IOException {
    Path p = resolve(name);
    Path dir = root;
    for (Path seg : p.getParent().equals(root) ? java.util.List.<Path>of() : root.relativize(p.getParent())) {
      dir = dir.resolve(seg);
      if (Files.isSymbolicLink(dir)) {
        throw new Refused("LocalFileName " + name + " passes through the symbolic link " + dir);
      }
      if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
        Files.createDirectory(dir);
      } else if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
        throw new Refused("LocalFileName " + name + ": " + dir + " is not a directory");
      }
    }
    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
      throw new Refused("LocalFileName " + name + " is a directory");
    }
    return p;
  }
}
