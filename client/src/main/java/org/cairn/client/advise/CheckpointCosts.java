package org.cairn.client.advise;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.util.UserCache;

/**
 * What each recent checkpoint of an app's node cost the job on this host: how long the job was paused
 * (a store's whole run; with {@code --async} only until the agent held the image; under DMTCP the
 * checkpoint itself, the store running beside the job). One JSON line per checkpoint in
 * {@code DIR/APP/NODE.jsonl}, the newest {@link #KEEP} kept, rewritten under a temporary name and renamed.
 *
 * <p>Kept on the compute host rather than in the catalog: the cost is a property of this host (its disk, its
 * cores, its link) as its mean time to interruption is, the tracker learns of a version only when its store
 * commits (not when the job stopped waiting), and the file outlives the job, the agent and a reboot.
 */
public final class CheckpointCosts {
  /** Samples kept per node. */
  public static final int KEEP = 20;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One checkpoint: when it ended (epoch ms), the job's pause (ms), and what paused it (store, async, dmtcp). */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Sample(long at, long pauseMillis, String source) {}

  private final Path dir;

  public CheckpointCosts(Path dir) {
    this.dir = dir;
  }

  /** The ledger under the user's cache ({@code ~/.cache/cairn/costs}). */
  public static CheckpointCosts local() {
    return new CheckpointCosts(UserCache.dir().resolve("costs"));
  }

  /** Adds one checkpoint's pause, dropping the oldest beyond {@link #KEEP}. */
  public synchronized void record(String app, String node, Duration pause, String source) throws IOException {
    if (pause.isNegative()) {
      throw new IllegalArgumentException("a checkpoint's pause is not negative, was " + pause);
    }
    List<Sample> samples = new ArrayList<>(recent(app, node));
    samples.add(new Sample(System.currentTimeMillis(), pause.toMillis(), source));
    List<Sample> kept = samples.subList(Math.max(0, samples.size() - KEEP), samples.size());
    Path file = file(app, node);
    Files.createDirectories(file.getParent());
    StringBuilder text = new StringBuilder();
    for (Sample s : kept) {
      text.append(JSON.writeValueAsString(s)).append('\n');
    }
    Path tmp = Files.createTempFile(file.getParent(), "." + node, ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** The samples of app/node, oldest first (none if never recorded); a line that does not parse is skipped. */
  public List<Sample> recent(String app, String node) throws IOException {
    Path file = file(app, node);
    if (!Files.exists(file)) {
      return List.of();
    }
    List<Sample> out = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      try {
        Sample s = JSON.readValue(line, Sample.class);
        if (s.pauseMillis() >= 0) {
          out.add(s);
        }
      } catch (IOException torn) {
        // a line written by something else: not a sample
      }
    }
    return out;
  }

  private Path file(String app, String node) {
    for (String name : new String[] {app, node}) {
      if (name == null || name.isEmpty() || name.startsWith(".") || name.contains("/") || name.contains("\\") || name.contains("\0")) {
        throw new IllegalArgumentException("app and node names used as file names must not be empty, start with '.' or hold '/', was '"
            + name + "'");
      }
    }
    return dir.resolve(app).resolve(node + ".jsonl");
  }
}
