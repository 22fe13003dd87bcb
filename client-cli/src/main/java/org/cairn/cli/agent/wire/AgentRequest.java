package org.cairn.cli.agent.wire;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A command a thin client hands to the agent: its arguments as typed, its working directory (its
 * relative paths mean files there), whether its standard error is a terminal (progress is drawn
 * only then), and its {@code CAIRN_*} environment (which tracker, token, keys and log level it
 * means: one agent serves every grid its callers name).
 */
public record AgentRequest(List<String> args, String cwd, boolean terminal, Map<String, String> env) {
  /** "CAGT", then the wire version. */
  static final int MAGIC = 0x43414754;
  static final int VERSION = 2;
  static final int MAX_ARGS = 4096;
  static final int MAX_ENV = 64;
  /** Variables of the launcher and the hand-over itself: not the command's. */
  private static final Set<String> NOT_FORWARDED = Set.of("CAIRN_AGENT_SOCKET", "CAIRN_AGENT_ABSENT", "CAIRN_THIN_CLIENT",
      "CAIRN_JAVA_OPTS", "CAIRN_AGENT");

  public AgentRequest {
    args = List.copyOf(args);
    env = Map.copyOf(env);
    if (args.size() > MAX_ARGS) {
      throw new IllegalArgumentException(args.size() + " arguments, more than " + MAX_ARGS);
    }
    if (env.size() > MAX_ENV) {
      throw new IllegalArgumentException(env.size() + " environment variables, more than " + MAX_ENV);
    }
    for (String name : env.keySet()) {
      if (!forwarded(name)) {
        throw new IllegalArgumentException("environment variable " + name + " is not one a command reads");
      }
    }
    if (cwd == null || !cwd.startsWith("/")) {
      throw new IllegalArgumentException("the working directory must be absolute, was " + cwd);
    }
  }

  public AgentRequest(List<String> args, String cwd, boolean terminal) {
    this(args, cwd, terminal, Map.of());
  }

  /** Whether a client sends variable {@code name}: the {@code CAIRN_*} ones a command reads. */
  static boolean forwarded(String name) {
    return name.startsWith("CAIRN_") && !NOT_FORWARDED.contains(name);
  }

  /** The variables of {@code environment} a client sends (at most {@link #MAX_ENV}, in name order). */
  public static Map<String, String> forwardedOf(Map<String, String> environment) {
    Map<String, String> out = new java.util.TreeMap<>();
    for (Map.Entry<String, String> e : environment.entrySet()) {
      if (forwarded(e.getKey()) && out.size() < MAX_ENV) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return out;
  }

  public void write(DataOutput out) throws IOException {
    out.writeInt(MAGIC);
    out.writeInt(VERSION);
    out.writeUTF(cwd);
    out.writeBoolean(terminal);
    out.writeInt(args.size());
    for (String a : args) {
      out.writeUTF(a);
    }
    out.writeInt(env.size());
    for (Map.Entry<String, String> e : new java.util.TreeMap<>(env).entrySet()) {
      out.writeUTF(e.getKey());
      out.writeUTF(e.getValue());
    }
  }

  /** Reads a request; a stream that is not one (another program, another wire version) is refused. */
  public static AgentRequest read(DataInput in) throws IOException {
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
    int vars = in.readInt();
    if (vars < 0 || vars > MAX_ENV) {
      throw new IOException("bad environment count " + vars);
    }
    Map<String, String> env = new java.util.HashMap<>();
    for (int i = 0; i < vars; i++) {
      String name = in.readUTF();
      if (env.put(name, in.readUTF()) != null) {
        throw new IOException("environment variable " + name + " sent twice");
      }
    }
    try {
      return new AgentRequest(args, cwd, terminal, env);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
  }
}
