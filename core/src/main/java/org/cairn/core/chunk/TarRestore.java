package org.cairn.core.chunk;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Restores a tar image into a directory without ever writing outside it, whatever the archive says.
 * A restored image comes from the grid and may have been written by someone else, so each entry is
 * checked before anything is created: its name is relative and has no {@code ..}; every directory
 * on its way is created here one component at a time and must be a real directory, never a symlink
 * (checked without following links), so an earlier entry {@code d -> /elsewhere} cannot carry a
 * later {@code d/file} out; a symlink's target must be relative, go up ({@code ..}) only at its
 * start and stay inside the target, so no chain of links leads out; a hard link must name a regular
 * file already restored here. A file is written to a fresh temporary file beside its final name
 * (created exclusively, so never through a link) and renamed into place only once complete; modes
 * are set without following links. Anything else is refused with a one-line {@link IOException}
 * naming the entry.
 */
final class TarRestore {
  private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

  private final Path root;
  private final List<Path> dirs = new ArrayList<>();
  private final List<Integer> dirModes = new ArrayList<>();

  private TarRestore(Path root) {
    this.root = root;
  }

  /** Restores the tar image {@code in} into {@code target} (created if missing). */
  static void extract(InputStream in, Path target) throws IOException {
    Files.createDirectories(target);
    TarRestore r = new TarRestore(target.toRealPath());
    TarArchiveInputStream tar = new TarArchiveInputStream(in, "UTF-8");
    TarArchiveEntry e;
    while ((e = tar.getNextEntry()) != null) {
      r.entry(e, tar);
    }
    r.finish();
  }

  private void entry(TarArchiveEntry e, InputStream data) throws IOException {
    List<String> parts = components(e.getName());
    Path parent = directories(e.getName(), parts.subList(0, parts.size() - 1));
    Path dest = parent.resolve(parts.get(parts.size() - 1));
    if (e.isDirectory()) {
      directory(e.getName(), dest);
      dirs.add(dest);
      dirModes.add(e.getMode());
    } else if (e.isSymbolicLink()) {
      symlink(e, parts, dest);
    } else if (e.isLink()) {
      hardLink(e, dest);
    } else if (e.isCharacterDevice() || e.isBlockDevice() || e.isFIFO() || !e.isFile()) {
      throw refused(e.getName(), "not a regular file, directory or link");
    } else {
      file(e, data, dest);
    }
  }

  /** The name's components; refused when absolute, empty or with {@code .}/{@code ..} components. */
  private static List<String> components(String name) throws IOException {
    if (name.isEmpty() || name.startsWith("/") || name.indexOf('\\') >= 0 || name.indexOf('\0') >= 0) {
      throw refused(name, "an absolute or malformed name");
    }
    List<String> out = new ArrayList<>();
    for (String c : name.split("/")) {
      if (c.equals("..")) {
        throw refused(name, "outside the target directory");
      }
      if (!c.isEmpty() && !c.equals(".")) {
        out.add(c);
      }
    }
    if (out.isEmpty()) {
      throw refused(name, "it names the target directory itself");
    }
    return out;
  }

  /** Walks (creating) the directories {@code parts} below the root; each must be a real directory. */
  private Path directories(String name, List<String> parts) throws IOException {
    Path at = root;
    for (String c : parts) {
      at = at.resolve(c);
      directory(name, at);
    }
    return at;
  }

  /** Makes sure {@code dir} is a real directory (created if missing), never following a link. */
  private static void directory(String name, Path dir) throws IOException {
    BasicFileAttributes a = attributes(dir);
    if (a == null) {
      try {
        Files.createDirectory(dir);
        return;
      } catch (FileAlreadyExistsException raced) {
        a = attributes(dir);
      }
    }
    if (a == null || a.isSymbolicLink()) {
      throw refused(name, "its path goes through a symbolic link");
    }
    if (!a.isDirectory()) {
      throw refused(name, "its path goes through a file that is not a directory");
    }
  }

  private static BasicFileAttributes attributes(Path p) throws IOException {
    try {
      return Files.readAttributes(p, BasicFileAttributes.class, NOFOLLOW);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  private void symlink(TarArchiveEntry e, List<String> parts, Path dest) throws IOException {
    String link = e.getLinkName();
    if (link == null || link.isEmpty() || link.startsWith("/") || link.indexOf('\0') >= 0) {
      throw refused(e.getName(), "an absolute or empty link target " + link);
    }
    // the link's directory is a real directory parts.size()-1 levels below the root: leading ".."
    // climb real directories, and a link that only descends afterwards cannot leave through another
    int depth = parts.size() - 1;
    boolean descending = false;
    for (String c : link.split("/")) {
      if (c.equals("..")) {
        if (descending || --depth < 0) {
          throw refused(e.getName(), "its link target " + link + " leads outside the target directory");
        }
      } else if (!c.isEmpty() && !c.equals(".")) {
        descending = true;
      }
    }
    replaceable(e.getName(), dest);
    Files.createSymbolicLink(dest, Path.of(link));
  }

  private void hardLink(TarArchiveEntry e, Path dest) throws IOException {
    String link = e.getLinkName();
    if (link == null || link.isEmpty() || link.startsWith("/")) {
      throw refused(e.getName(), "a hard link to " + link + " outside the target directory");
    }
    List<String> parts;
    try {
      parts = components(link);
    } catch (IOException bad) {
      throw refused(e.getName(), "a hard link to " + link + " outside the target directory");
    }
    Path source = root;
    for (int i = 0; i < parts.size(); i++) {
      source = source.resolve(parts.get(i));
      BasicFileAttributes a = attributes(source);
      boolean last = i == parts.size() - 1;
      if (a == null || a.isSymbolicLink() || (last ? !a.isRegularFile() : !a.isDirectory())) {
        throw refused(e.getName(), "a hard link to " + link + ", which is not a file restored here");
      }
    }
    replaceable(e.getName(), dest);
    Files.createLink(dest, source);
  }

  /** An existing {@code dest} (not a directory) is removed so a link can take its name. */
  private static void replaceable(String name, Path dest) throws IOException {
    BasicFileAttributes a = attributes(dest);
    if (a != null && a.isDirectory()) {
      throw refused(name, "a directory of that name was restored already");
    }
    Files.deleteIfExists(dest); // removes a link itself, never what it points at
  }

  private void file(TarArchiveEntry e, InputStream data, Path dest) throws IOException {
    BasicFileAttributes existing = attributes(dest);
    if (existing != null && existing.isDirectory()) {
      throw refused(e.getName(), "a directory of that name was restored already");
    }
    // createTempFile creates exclusively (O_EXCL, so never through a link), mode 0600
    Path tmp = Files.createTempFile(dest.getParent(), ".cairn", ".cairn-partial");
    boolean moved = false;
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, NOFOLLOW);
          OutputStream out = java.nio.channels.Channels.newOutputStream(ch)) {
        data.transferTo(out);
        ch.force(true);
      }
      setMode(tmp, e.getMode());
      Files.move(tmp, dest, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      moved = true;
    } finally {
      if (!moved) {
        Files.deleteIfExists(tmp); // a broken stream never leaves a partial file behind
      }
    }
  }

  /** Directory modes last, so a read-only directory does not block writing its files; innermost first. */
  private void finish() throws IOException {
    for (int i = dirs.size() - 1; i >= 0; i--) {
      setMode(dirs.get(i), dirModes.get(i));
    }
  }

  /** Sets the permission bits of {@code p} itself: refused (ELOOP) rather than followed if it is a link. */
  static void setMode(Path p, int mode) throws IOException {
    Set<PosixFilePermission> perms = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] all = PosixFilePermission.values();
    for (int i = 0; i < 9; i++) {
      if ((mode & (1 << (8 - i))) != 0) {
        perms.add(all[i]);
      }
    }
    PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class, NOFOLLOW);
    if (view == null) {
      return; // non-POSIX file system: modes cannot be kept there
    }
    try {
      view.setPermissions(perms);
    } catch (java.nio.file.FileSystemException ex) {
      throw new IOException("cannot set the mode of " + p + " (" + ex.getReason() + ")", ex);
    }
  }

  private static IOException refused(String name, String why) {
    return new IOException("refusing tar entry " + name + ": " + why);
  }
}
