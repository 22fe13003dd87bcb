package org.cairn.client.dmtcp;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.io.file.PathUtils;

/**
 * A DMTCP checkpoint directory written with unique checkpoint file names: generation G of
 * computation C is the directory {@code ckpt_C_G} (one image per process) and the restart script
 * {@code dmtcp_restart_script_C_G.sh}, which the coordinator writes only once every process has
 * renamed its finished image into place. So a script is the sign its generation is complete. A
 * generation is known by its script's name and modification time: a computation restarted from an
 * older checkpoint writes the numbers after it again, and such a rewritten generation is a new one.
 */
public final class CheckpointDir {
  static final Pattern SCRIPT = Pattern.compile("dmtcp_restart_script_(.+)_(\\d{5,})\\.sh");
  /** The name the restart script gets inside a stored generation. */
  public static final String SCRIPT_IN_VERSION = "dmtcp_restart_script.sh";

  private final Path dir;
  private final Set<String> seen = new HashSet<>();

  /** A complete generation: its images' directory and its restart script. */
  public record Generation(String computation, int number, Path images, Path script) {
    /** The images (ckpt_*.dmtcp) of this generation, sorted. */
    public List<Path> imageFiles() throws IOException {
      return CheckpointDir.images(images);
    }
  }

  /** Watches {@code dir}; generations complete before now count as seen (an earlier run's). */
  public CheckpointDir(Path dir) throws IOException {
    this.dir = Files.createDirectories(dir);
    for (Generation g : scan()) {
      seen.add(key(g));
    }
  }

  public Path path() {
    return dir;
  }

  /** Generations completed since the last call (or construction), oldest first. */
  public synchronized List<Generation> newlyCompleted() throws IOException {
    List<Generation> out = new ArrayList<>();
    for (Generation g : scan()) {
      if (seen.add(key(g))) {
        out.add(g);
      }
    }
    return out;
  }

  /** A generation's identity: its script's name and modification time. */
  private static String key(Generation g) throws IOException {
    return g.script().getFileName() + "@" + Files.getLastModifiedTime(g.script()).toMillis();
  }

  /**
   * Puts the restart script beside the images (a hard link, so DMTCP's next checkpoint cannot change
   * it) and returns the directory that holds the whole generation, ready to store as one version.
   */
  public Path stage(Generation g) throws IOException {
    Path link = g.images().resolve(SCRIPT_IN_VERSION);
    if (Files.exists(link) && !Files.isSameFile(link, g.script())) {
      Files.delete(link); // a generation of the same number written before this one (by a run restarted from an older one)
    }
    try {
      Files.createLink(link, g.script());
    } catch (FileAlreadyExistsException e) {
      // staged by an earlier attempt
    } catch (UnsupportedOperationException e) {
      Files.copy(g.script(), link);
    }
    return g.images();
  }

  /**
   * Removes the local copies of generations older than {@code kept} (their images and scripts) and
   * any other directory in {@code olderCopies}: called once {@code kept}'s version is committed.
   */
  public void pruneBefore(Generation kept, List<Path> olderCopies) throws IOException {
    for (Generation g : scan()) {
      if (g.computation().equals(kept.computation()) && g.number() < kept.number()) {
        PathUtils.deleteDirectory(g.images());
        Files.deleteIfExists(g.script());
      }
    }
    for (Path p : olderCopies) {
      if (Files.exists(p)) {
        PathUtils.deleteDirectory(p);
      }
    }
  }

  private List<Generation> scan() throws IOException {
    List<Generation> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Matcher m = SCRIPT.matcher(p.getFileName().toString());
        if (!m.matches() || !Files.isRegularFile(p)) {
          continue;
        }
        Path images = dir.resolve("ckpt_" + m.group(1) + "_" + m.group(2));
        if (Files.isDirectory(images)) {
          out.add(new Generation(m.group(1), Integer.parseInt(m.group(2)), images, p));
        }
      }
    }
    out.sort(Comparator.comparingInt(Generation::number));
    return out;
  }

  /** The DMTCP images in {@code dir}, sorted by name. */
  public static List<Path> images(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".dmtcp") && Files.isRegularFile(p)).sorted().toList();
    }
  }
}
