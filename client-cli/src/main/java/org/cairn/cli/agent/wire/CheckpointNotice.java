package org.cairn.cli.agent.wire;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * "Checkpoint now": what the agent sends the jobs that watch it (as {@code cairn dmtcp launch} does) when it is
 * told the compute host is about to be taken back (the donor app saw its owner return, or {@code cairn agent
 * notify-checkpoint}). On a watch connection the agent first answers {@link #SUBSCRIBED}, then one {@link #NOTICE}
 * frame per notice: the type byte, a 32-bit length (at most {@link #MAX_FRAME}), then the body (the wire version,
 * the notice's number, when it was sent in epoch milliseconds, and the reason, at most {@link #MAX_REASON}
 * characters). JDK classes only, as the rest of this package.
 *
 * @param seq the agent's count of notices, from 1
 * @param atMillis when the agent sent it (epoch milliseconds)
 * @param reason why, in words ("the owner is using the computer")
 */
public record CheckpointNotice(long seq, long atMillis, String reason) {
  /** A notice's frame type (the command answer's are 1 to 3, {@link AgentWire}). */
  public static final byte NOTICE = 4;
  /** The agent's answer to a watch: the job is on its list. */
  public static final byte SUBSCRIBED = 5;
  static final int VERSION = 1;
  public static final int MAX_REASON = 200;
  static final int MAX_FRAME = 1024;
  /**
   * At most one notice is sent per this time: a busy rule that flaps (an owner who moves the mouse every few seconds,
   * a CPU load around its threshold) costs the jobs one checkpoint, not one per flap.
   */
  public static final Duration MIN_GAP = Duration.ofSeconds(60);
  /** The request's words: {@code agent watch JOB} and {@code agent notify-checkpoint [--reason R] [--json]}. */
  public static final String WATCH = "watch";
  public static final String NOTIFY = "notify-checkpoint";

  public CheckpointNotice {
    if (seq < 1) {
      throw new IllegalArgumentException("a notice's number starts at 1, was " + seq);
    }
    reason = shortened(reason);
  }

  /** {@code reason} on one line and at most {@link #MAX_REASON} characters ("" for null). */
  public static String shortened(String reason) {
    String r = reason == null ? "" : reason.replaceAll("[\\p{Cntrl}]", " ").strip();
    return r.length() > MAX_REASON ? r.substring(0, MAX_REASON) : r;
  }

  /** The request a job sends to watch for notices; {@code job} names it in the agent's log and answers ("app.node"). */
  public static AgentRequest watchRequest(String job) {
    return new AgentRequest(List.of("agent", WATCH, shortened(job)), "/", false);
  }

  /** Whether {@code r} is a watch (it then holds the connection, which carries notices, not a command's output). */
  public static boolean isWatch(AgentRequest r) {
    return r.args().size() == 3 && r.args().get(0).equals("agent") && r.args().get(1).equals(WATCH);
  }

  /** The request that tells the agent's jobs to checkpoint, answered as a command ({@code --json}: one JSON object). */
  public static AgentRequest notifyRequest(String reason) {
    return new AgentRequest(List.of("agent", NOTIFY, "--reason", shortened(reason), "--json"), "/", false);
  }

  public void write(DataOutputStream wire) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream(64);
    DataOutputStream body = new DataOutputStream(b);
    body.writeInt(VERSION);
    body.writeLong(seq);
    body.writeLong(atMillis);
    body.writeUTF(reason);
    synchronized (wire) {
      wire.writeByte(NOTICE);
      wire.writeInt(b.size());
      b.writeTo(wire);
      wire.flush();
    }
  }

  /** Says the job is subscribed (the first frame of a watch). */
  public static void subscribed(DataOutputStream wire) throws IOException {
    synchronized (wire) {
      wire.writeByte(SUBSCRIBED);
      wire.writeInt(0);
      wire.flush();
    }
  }

  /** Reads the frame that opens a watch: {@link #SUBSCRIBED}, or the refusal an agent answers a command it will not run. */
  public static void awaitSubscribed(DataInputStream in) throws IOException {
    byte type = in.readByte();
    if (type == SUBSCRIBED) {
      if (in.readInt() != 0) {
        throw new IOException("bad subscription frame from the agent");
      }
      return;
    }
    if (type == AgentWire.ERR) {
      int n = in.readInt();
      if (n >= 0 && n <= 4096) {
        byte[] text = in.readNBytes(n);
        throw new IOException("the agent did not take the watch: "
            + new String(text, java.nio.charset.StandardCharsets.UTF_8).strip());
      }
    }
    throw new IOException("the agent did not take the watch (frame type " + type + "): run the same cairn build on both sides");
  }

  /** Reads the next notice; anything else, an oversized or malformed frame, is an error (the watch then ends). */
  public static CheckpointNotice read(DataInputStream in) throws IOException {
    byte type = in.readByte();
    int len = in.readInt();
    if (type != NOTICE || len < 0 || len > MAX_FRAME) {
      throw new IOException("bad frame from the agent (type " + type + ", " + len + " bytes)");
    }
    byte[] body = new byte[len];
    in.readFully(body);
    DataInputStream b = new DataInputStream(new java.io.ByteArrayInputStream(body));
    try {
      int version = b.readInt();
      if (version != VERSION) {
        throw new IOException("notice version " + version + ", this job reads " + VERSION);
      }
      CheckpointNotice n = new CheckpointNotice(b.readLong(), b.readLong(), b.readUTF());
      if (b.available() > 0) {
        throw new IOException("a notice frame with " + b.available() + " bytes after its end");
      }
      return n;
    } catch (java.io.EOFException | IllegalArgumentException e) {
      throw new IOException("a malformed notice from the agent (" + e.getMessage() + ")", e);
    }
  }
}
