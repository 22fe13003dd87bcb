package org.cairn.it.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/*
 * The seed papers' experiments on the emulated grid, run by Experiments (one command per
 * experiment). What they share: the run's settings, the real memory images, fresh copies of them,
 * stores through a testbed, and small helpers. Each group of experiments extends it.
 */
abstract class Lab {
  final Path root;
  final Path out;
  final Path work;
  final int imageMb;
  /** Compression for the network experiments: none by default, so the wire carries the whole image (gcore images are mostly zero pages). */
  final String compression;
  /** Mutator working sets (MB) for the sizes experiment. */
  int[] sizes = {16, 256, 1024};
  /** Every donor's disk rate in the tau2 experiment (grid.sh up --disk-rate). */
  String diskRate = "20MB";
  /** The alternate donor's link in the tau2 experiment. */
  String altRate = "40mbit";
  /** The load generator's writers (queue depth) in the tau2 experiment, one series each. */
  int[] loadWriters = {2, 8};
  /** The tau2 experiment's variants (see USAGE). */
  List<String> tau2Variants = List.of("always", "falcon");
  /** Link delay each way for every testbed of the run (experiment.sh --delay D), or null. */
  String delay;
  /** tmpfs size per donor for every testbed of the run (experiment.sh --ram-disks SIZE), or null. */
  String ramDisks;

  Lab(Path root, Path out, Path work, int imageMb, String compression) {
    this.root = root;
    this.out = out;
    this.work = work;
    this.imageMb = imageMb;
    this.compression = compression;
  }

  /** The same settings, for another group of experiments. */
  Lab(Lab o) {
    this(o.root, o.out, o.work, o.imageMb, o.compression);
    sizes = o.sizes;
    diskRate = o.diskRate;
    altRate = o.altRate;
    loadWriters = o.loadWriters;
    tau2Variants = o.tau2Variants;
    delay = o.delay;
    ramDisks = o.ramDisks;
  }

  String command(String name) {
    return "it/testbed/experiment.sh " + name + (imageMb != 16 ? " --image-mb " + imageMb : "")
        + (compression.equals("none") ? "" : " --compression " + compression) + (delay == null ? "" : " --delay " + delay) + (ramDisks == null ? "" : " --ram-disks " + ramDisks);
  }

  /**
   * Real memory images of about {@code mb} MB each: gcore of the mutator at successive
   * checkpoints. Made once and kept in the work directory.
   */
  List<Path> images(int mb, int count) throws IOException, InterruptedException {
    Path dir = work.resolve("images-" + mb + "mb");
    List<Path> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(dir.resolve("image-" + i + ".core"));
    }
    if (out.stream().allMatch(Files::exists)) {
      return out;
    }
    // grid, particles, table, scratch in MB: the mutator's regions; the rest of the core is small
    int grid = Math.max(1, mb * 3 / 8);
    int particles = Math.max(1, mb * 3 / 16);
    int table = Math.max(1, mb / 16);
    int scratch = Math.max(1, mb * 3 / 8);
    Process p = new ProcessBuilder("bash", root.resolve("it/tools/memimage/make-images.sh").toString(), dir.toString(),
        Integer.toString(count), Integer.toString(grid), Integer.toString(particles), Integer.toString(table),
        Integer.toString(scratch)).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("make-images.sh failed (needs gcc and gdb)");
    }
    return out;
  }

  static double mean(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  static double max(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  /** Stores concurrently from clients c1..cN; returns each store's JSON. */
  List<JsonNode> storeConcurrently(Testbed tb, int clients, Path image, String appPrefix, String... extra)
      throws IOException, InterruptedException {
    List<Process> ps = new ArrayList<>();
    List<Path> outs = new ArrayList<>();
    List<Path> copies = new ArrayList<>();
    for (int i = 1; i <= clients; i++) {
      copies.add(fresh(image, appPrefix + "-c" + i)); // each client its own new bytes, as different jobs
    }
    try {
      for (int i = 1; i <= clients; i++) {
        Path o = tb.dir().resolve("store-" + appPrefix + "-" + i + ".json");
        List<String> args = new ArrayList<>(List.of("store", copies.get(i - 1).toString(), "--app", appPrefix + "-c" + i, "--node", "n",
            "--json", "--compression", compression));
        args.addAll(Arrays.asList(extra));
        ps.add(tb.cairnAsync("c" + i, o, args.toArray(String[]::new)));
        outs.add(o);
      }
      List<JsonNode> results = new ArrayList<>();
      for (int i = 0; i < ps.size(); i++) {
        int exit = ps.get(i).waitFor();
        if (exit != 0) {
          throw new IllegalStateException("store from c" + (i + 1) + " exited " + exit + ": "
              + Files.readString(outs.get(i).resolveSibling(outs.get(i).getFileName() + ".err")));
        }
        results.add(Testbed.JSON.readTree(Files.readString(outs.get(i))));
      }
      return results;
    } finally {
      for (Process p : ps) {
        p.destroyForcibly(); // a store left running after another failed; no-op for the finished ones
      }
      for (Path c : copies) {
        Files.deleteIfExists(c);
      }
    }
  }

  /**
   * A copy of the image that no earlier store holds: every 64 KiB block starts with 16 bytes derived
   * from the tag. Peers skip writing a fragment they already hold (its key is its content), so
   * storing one image again under a new app sends every byte but writes none; experiments about the
   * donors' disks must store new bytes every time. Blocks that were equal stay equal (the stamp does
   * not depend on the block's position), so the image's own duplicate chunks (its zero pages) still
   * dedup within the copy, as in the original. With {@code unique}, the stamp also carries the block's
   * index, so no two blocks are equal and the whole image is sent and written (the tau2 and stripe experiments,
   * where the disks' load is the point). Delete the copy after the store.
   */
  Path fresh(Path image, String tag) throws IOException {
    return fresh(image, tag, false);
  }

  Path fresh(Path image, String tag, boolean unique) throws IOException {
    Path dir = Files.createDirectories(work.resolve("fresh"));
    Path out = dir.resolve(tag + ".img");
    long salt = (long) tag.hashCode() * 0x9E3779B97F4A7C15L;
    long salt2 = Long.rotateLeft(salt, 29) ^ 0xC2B2AE3D27D4EB4FL;
    byte[] block = new byte[64 * 1024];
    try (java.io.InputStream in = Files.newInputStream(image); java.io.OutputStream o = Files.newOutputStream(out)) {
      long index = 0;
      int n;
      while ((n = in.readNBytes(block, 0, block.length)) > 0) {
        if (n >= 16) {
          java.nio.ByteBuffer.wrap(block).putLong(salt).putLong(unique ? salt2 ^ index : salt2);
        }
        index++;
        o.write(block, 0, n);
      }
    }
    return out;
  }

  /** Stores a fresh copy of the image (see {@link #fresh}) as the app. */
  JsonNode store(Testbed tb, Path image, String app) throws IOException, InterruptedException {
    return store(tb, image, app, false);
  }

  JsonNode store(Testbed tb, Path image, String app, boolean unique) throws IOException, InterruptedException {
    Path copy = fresh(image, app, unique);
    try {
      return tb.cairn("c1", "store", copy.toString(), "--app", app, "--node", "n", "--json", "--compression", compression,
          "--redundancy", "code:3+2").check("store").json();
    } finally {
      Files.deleteIfExists(copy);
    }
  }

  static double fetchSeconds(Testbed tb, String app, String read) throws IOException, InterruptedException {
    Path target = tb.dir().resolve("mk.img");
    JsonNode j = tb.cairn("c1", "fetch", "--app", app, "--node", "n", "-o", target.toString(), "--json", "--read", read).check("fetch").json();
    Files.deleteIfExists(target);
    return j.path("seconds").asDouble();
  }

  static String run(List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", cmd) + " exited " + p.exitValue() + " (its errors are above)");
    }
    return out;
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var s = Files.walk(dir)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
