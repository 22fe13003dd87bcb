package org.cairn.cli.output;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.cairn.client.store.StoreOutcome;
import org.cairn.core.config.ByteSize;

/**
 * What {@code cairn store} prints about a committed store: one line (two for a part of a checkpoint set, and a
 * line per version a replace policy removed), or with {@code --json} this record as one JSON object. Fields a
 * store does not have are left out: {@code recordBytes} when an agent stores the catalog record after answering,
 * the set's fields for a store that is not part of a set.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
public record StoreReport(String app, String node, long step, long size, long chunks, long newChunks, long newBytes,
    long compressedBytes, long sentBytes, Long recordBytes, String write, double seconds, double mbPerSec, List<String> hosts,
    List<String> replaced, List<String> probed, String set, Integer part, Integer parts, Integer partsCommitted) {

  /** The report of {@code res}, written with {@code write} ({@code part}: this store's part of its set, if any). */
  static StoreReport of(StoreOutcome res, String write, Integer part) {
    double mbps = mbPerSec(res);
    boolean inSet = res.set() != null;
    return new StoreReport(res.app(), res.node(), res.step(), res.size(), res.chunks(), res.newChunks(), res.newBytes(),
        res.compressedBytes(), res.sentBytes(), res.recordBytes() >= 0 ? res.recordBytes() : null, write,
        Math.round(res.seconds() * 1000) / 1000.0, Math.round(mbps * 10) / 10.0, res.hosts(), res.replaced(), res.probed(),
        inSet ? res.set().set() : null, inSet ? part : null, inSet ? res.set().parts() : null,
        inSet ? res.set().partsCommitted() : null);
  }

  /** Prints {@code res} as {@code cairn store} does: this report as JSON, or its lines. */
  public static void print(PrintWriter out, boolean json, StoreOutcome res, String write, Integer part) throws IOException {
    double mbps = mbPerSec(res);
    if (json) {
      out.println(Json.MAPPER.writeValueAsString(of(res, write, part)));
    } else if (res.set() != null) {
      out.printf(Locale.ROOT, "stored part %d of set %s of %s.%s: %s in %d chunks (%d new), sent %s to %d hosts in %.1f s (%s/s)%n",
          part, res.set().set(), res.app(), res.node(), ByteSize.format(res.size()), res.chunks(), res.newChunks(),
          ByteSize.format(res.sentBytes()), res.hosts().size(), res.seconds(), ByteSize.format((long) (mbps * 1e6)));
      out.println(res.step() > 0
          ? String.format(Locale.ROOT, "set %s complete: all %d parts committed as %s.%s.%d", res.set().set(), res.set().parts(), res.app(),
              res.node(), res.step())
          : String.format(Locale.ROOT, "set %s: %d of %d parts committed; its version appears when all are", res.set().set(),
              res.set().partsCommitted(), res.set().parts()));
    } else {
      out.printf(Locale.ROOT, "stored %s.%s.%d: %s in %d chunks, %d new (%s, %s compressed, %s sent with redundancy to %d hosts)"
          + " in %.1f s (%s/s)%n", res.app(), res.node(), res.step(), ByteSize.format(res.size()), res.chunks(), res.newChunks(),
          ByteSize.format(res.newBytes()), ByteSize.format(res.compressedBytes()), ByteSize.format(res.sentBytes()),
          res.hosts().size(), res.seconds(), ByteSize.format((long) (mbps * 1e6)));
      for (String r : res.replaced()) {
        out.println("  replaced " + r);
      }
    }
    out.flush();
  }

  private static double mbPerSec(StoreOutcome res) {
    return res.size() / 1e6 / Math.max(res.seconds(), 1e-9);
  }
}
