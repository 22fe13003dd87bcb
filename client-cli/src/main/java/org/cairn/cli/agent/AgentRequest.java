package org.cairn.cli.agent;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A command a thin client hands to the agent: its arguments as typed, its working directory (its
 * relative paths mean files there) and whether its standard error is a terminal (progress is drawn
 * only then).
 */
public record AgentRequest(List<String> args, String cwd, boolean terminal) {
  /** "CAGT", then the wire version. */
  static final int MAGIC = 0x43414754;
  static final int VERSION = 1;
  static final int MAX_ARGS = 4096;

  public AgentRequest {
    args = List.copyOf(args);
    if (args.size() > MAX_ARGS) {
      throw new IllegalArgumentException(args.size() + " arguments, more than " + MAX_ARGS);
    }
    if (cwd == null || !cwd.startsWith("/")) {
      throw new IllegalArgumentException("the working directory must be absolute, was " + cwd);
    }
  }

  void write(DataOutput out) throws IOException {
    out.writeInt(MAGIC);
    out.writeInt(VERSION);
    out.writeUTF(cwd);
    out.writeBoolean(terminal);
    out.writeInt(args.size());
    for (String a : args) {
      out.writeUTF(a);
    }
  }

  /** Reads a request; a stream that is not one (another program, another wire version) is refused. */
  static AgentRequest read(DataInput in) throws IOException {
    int magic = in.readInt();
    if (magic != MAGIC) {
      throw new IOException("not a cairn agent request (magic " + Integer.toHexString(magic) + ")");
    }
    int version = in.readInt();
    if (version != VERSION) {
      throw new IOException("agent wire version " + version + ", this agent speaks " + VERSION + ": run the same cairn build on both sides");
    }
    String cwd = in.readUTF();
    boolean terminal = in.readBoolean();
    int n = in.readInt();
    if (n < 0 || n > MAX_ARGS) {
      throw new IOException("bad argument count " + n);
    }
    List<String> args = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      args.add(in.readUTF());
    }
    try {
      return new AgentRequest(args, cwd, terminal);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
  }
}
