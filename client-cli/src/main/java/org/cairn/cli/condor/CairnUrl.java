package org.cairn.cli.condor;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A {@code cairn://APP/PATH} URL as a Cairn version: the authority is the app, the path names the node, and a path in
 * HTCondor's checkpoint layout also names the step.
 *
 * <ul>
 *   <li>{@code cairn://APP/SEG/.../SEG}: node = the segments joined by {@code +}; a download reads the latest version,
 *       an upload stores the node's next one.</li>
 *   <li>{@code cairn://APP/[PREFIX/]GLOBALJOBID/NNNN/FILE...} (what HTCondor makes of {@code checkpoint_destination =
 *       cairn://APP/PREFIX}: the job's global id with {@code #} made {@code _}, then the checkpoint number): node = the
 *       segments without {@code NNNN}, step = NNNN + 1. So each file of a job's checkpoints is one node whose steps are
 *       the checkpoints (the store deltas each against the one before), and checkpoint N's files are the versions at
 *       step N + 1. HTCondor names its {@code _condor_checkpoint_MANIFEST.NNNN} by the number too; that {@code .NNNN} is
 *       dropped from the node, so the MANIFESTs are one node as well.</li>
 * </ul>
 * The path is taken as HTCondor writes it (no percent-decoding, no query): empty segments are dropped (HTCondor joins
 * {@code checkpoint_destination} and the rest with a {@code /} whether or not it ends in one), {@code .}, {@code ..} and
 * control characters are refused. A character outside a node name's {@code [A-Za-z0-9._-]} becomes {@code ++} and two
 * hex digits per UTF-8 byte, so two paths never name one node. A node name longer than 128 characters is refused.
 *
 * @param app the app
 * @param node the node
 * @param step the step, or 0 for the latest (download) or the next (upload)
 * @param checkpoint whether the URL is in HTCondor's checkpoint layout
 */
public record CairnUrl(String app, String node, long step, boolean checkpoint) {
  public static final String SCHEME = "cairn";
  private static final Pattern APP = Pattern.compile("[A-Za-z0-9_+-][A-Za-z0-9._+-]{0,127}");
  private static final Pattern GLOBAL_JOB_ID = Pattern.compile(".+_\\d+\\.\\d+_\\d+");
  private static final Pattern CHECKPOINT_NUMBER = Pattern.compile("\\d{4,9}");
  static final String MANIFEST = "_condor_checkpoint_MANIFEST";
  static final int MAX_NODE = 128;

  /** A URL the plug-in cannot take, and why (one line). */
  public static final class BadUrl extends IllegalArgumentException {
    BadUrl(String url, String why) {
      super("cannot use " + printable(url) + ": " + why);
    }

    /** {@code url} on one line (control characters escaped), at most 300 characters. */
    private static String printable(String url) {
      StringBuilder b = new StringBuilder();
      url.codePoints().limit(300).forEach(c -> b.append(c < 0x20 || c == 0x7f ? String.format(Locale.ROOT, "\\u%04x", c) : Character.toString(c)));
      return url.length() > 300 ? b + "..." : b.toString();
    }
  }

  public static CairnUrl parse(String url) {
    String prefix = SCHEME + "://";
    if (url == null || !url.regionMatches(true, 0, prefix, 0, prefix.length())) {
      throw new BadUrl(String.valueOf(url), "not a " + prefix + " URL");
    }
    String rest = url.substring(prefix.length());
    int slash = rest.indexOf('/');
    String app = slash < 0 ? rest : rest.substring(0, slash);
    if (!APP.matcher(app).matches()) {
      throw new BadUrl(url, "the app (after " + prefix + ") must be 1-128 of A-Z a-z 0-9 . _ + - not starting with '.', was '" + app + "'");
    }
    List<String> segments = segments(url, slash < 0 ? "" : rest.substring(slash + 1));
    if (segments.isEmpty()) {
      throw new BadUrl(url, "no node: give " + prefix + app + "/NODE");
    }
    int at = checkpointAt(segments);
    long step = 0;
    if (at >= 0) {
      String number = segments.remove(at);
      step = Long.parseLong(number) + 1;
      int last = segments.size() - 1;
      if (segments.get(last).equals(MANIFEST + "." + number)) {
        segments.set(last, MANIFEST);
      }
    }
    String node = node(segments);
    if (node.length() > MAX_NODE) {
      throw new BadUrl(url, "its node name would be " + node.length() + " characters, more than Cairn's " + MAX_NODE
          + " (shorten the path or file names)");
    }
    return new CairnUrl(app, node, step, at >= 0);
  }

  /** The path's segments: empty ones dropped; {@code .}, {@code ..} and control characters refused. */
  private static List<String> segments(String url, String path) {
    List<String> out = new ArrayList<>();
    for (String seg : path.split("/", -1)) {
      if (seg.isEmpty()) {
        continue;
      }
      if (seg.equals(".") || seg.equals("..")) {
        throw new BadUrl(url, "'" + seg + "' is not allowed in the path");
      }
      if (seg.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
        throw new BadUrl(url, "control characters are not allowed in the path");
      }
      out.add(seg);
    }
    return out;
  }

  /** The index of the checkpoint number in HTCondor's layout (after a global job id, before the file), or -1. */
  private static int checkpointAt(List<String> segments) {
    for (int i = 1; i + 1 < segments.size(); i++) {
      if (CHECKPOINT_NUMBER.matcher(segments.get(i)).matches() && GLOBAL_JOB_ID.matcher(segments.get(i - 1)).matches()) {
        return i;
      }
    }
    return -1;
  }

  /** The segments joined by {@code +}, each character outside {@code [A-Za-z0-9._-]} as {@code ++XX} per UTF-8 byte. */
  static String node(List<String> segments) {
    StringBuilder b = new StringBuilder();
    for (String seg : segments) {
      if (b.length() > 0) {
        b.append('+');
      }
      for (byte x : seg.getBytes(StandardCharsets.UTF_8)) {
        char c = (char) (x & 0xff);
        if (c < 0x80 && (Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-')) {
          b.append(c);
        } else {
          b.append("++").append(String.format(Locale.ROOT, "%02X", x & 0xff));
        }
      }
    }
    return b.toString();
  }

  /** "app.node" or "app.node.step", as the CLI names a version. */
  public String version() {
    return app + "." + node + (step > 0 ? "." + step : "");
  }
}
