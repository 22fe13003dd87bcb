package org.cairn.client.bases;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Keeps a base cache's directory ({@link BasePacks}) within its budget: the oldest packs go first,
 * each with its index file ({@link PackIndexFile}); the earlier one-file-per-chunk layout's files
 * all go. Nothing else in the directory is touched, so a cache pointed at one by mistake loses nothing.
 */
final class PackTrim {
  /** A pack's name: when it was started, by which process, a random tag. */
  static final Pattern PACK_NAME = Pattern.compile("\\d+-\\d+-[0-9a-f]+\\.pack");
  /** A pack's index file, or one being written. */
  private static final Pattern INDEX_NAME = Pattern.compile("\\d+-\\d+-[0-9a-f]+\\.pack\\.idx(\\.tmp-[0-9a-f]+)?");
  /** A file of the one-file-per-chunk layout (a chunk id, or one being written). */
  private static final Pattern LEGACY_NAME = Pattern.compile("[0-9a-f]{64}(\\.tmp-[0-9a-f-]+)?");
  /** An index file being written is left this long (its writer renames it within milliseconds). */
  private static final long TEMPORARY_MILLIS = 60_000;

  private PackTrim() {}

  /**
   * Removes the oldest packs in {@code dir} until they hold at most {@code budget} bytes, never
   * {@code writing} (the pack this process appends to, or null); each pack removed is given to
   * {@code removed}. Index files whose pack is gone go too.
   */
  static void trim(Path dir, long budget, Path writing, Consumer<Path> removed) {
    List<Path> packs = new ArrayList<>();
    List<Path> indexes = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String name = p.getFileName().toString();
        if (PACK_NAME.matcher(name).matches()) {
          packs.add(p);
        } else if (INDEX_NAME.matcher(name).matches()) {
          indexes.add(p);
        } else if (LEGACY_NAME.matcher(name).matches()) {
          Files.deleteIfExists(p);
        }
      }
    } catch (IOException e) {
      return;
    }
    long total = 0;
    List<long[]> info = new ArrayList<>();
    for (int i = 0; i < packs.size(); i++) {
      try {
        long size = Files.size(packs.get(i));
        total += size;
        info.add(new long[] {Files.getLastModifiedTime(packs.get(i)).toMillis(), size, i});
      } catch (IOException e) {
        // gone meanwhile
      }
    }
    info.sort(Comparator.comparingLong(a -> a[0]));
    for (long[] a : info) {
      if (total <= budget) {
        break;
      }
      Path p = packs.get((int) a[2]);
      if (p.equals(writing)) {
        continue;
      }
      try {
        Files.deleteIfExists(p);
        removed.accept(p);
        total -= a[1];
      } catch (IOException e) {
        // try the next
      }
    }
    for (Path p : indexes) {
      String name = p.getFileName().toString();
      try {
        boolean orphan = name.endsWith(PackIndexFile.SUFFIX)
            ? !Files.exists(dir.resolve(name.substring(0, name.length() - PackIndexFile.SUFFIX.length())))
            : Files.getLastModifiedTime(p).toMillis() < System.currentTimeMillis() - TEMPORARY_MILLIS;
        if (orphan) {
          Files.deleteIfExists(p);
        }
      } catch (IOException e) {
        // gone meanwhile
      }
    }
  }
}
