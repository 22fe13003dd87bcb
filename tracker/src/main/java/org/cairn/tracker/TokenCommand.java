package org.cairn.tracker;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.cairn.core.config.Durations;
import org.cairn.tracker.auth.Role;
import org.cairn.tracker.auth.TokenRecord;
import org.cairn.tracker.auth.TokenStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code cairn-tracker token create|list|revoke --data D}: the credentials the operator hands out.
 * They live as files under {@code D/tokens} (hashes only), so these commands work while the tracker
 * runs; the tracker sees a new or revoked token at its next use.
 */
@Command(name = "token", mixinStandardHelpOptions = true,
    description = "Make, list and revoke credentials (the tracker may be running).",
    subcommands = {TokenCommand.Create.class, TokenCommand.ListTokens.class, TokenCommand.Revoke.class})
final class TokenCommand {

  static Path requireData(CommandLine cl, Path data) {
    if (data == null) {
      throw new CommandLine.ParameterException(cl, "Missing required option: '--data=DIR'");
    }
    if (!Files.isDirectory(data)) {
      throw new CommandLine.ParameterException(cl, "--data " + data + " is not a tracker's data directory (no such directory)");
    }
    return data;
  }

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = {"Print a new token on stdout (nothing else, so $(...) takes it).",
          "client: store, fetch and inspect the apps in --apps (default all); donor: an enrollment token a peer "
          + "joins with (the peer then gets a credential of its own); it registers one peer unless --uses says more."})
  static final class Create implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--data", paramLabel = "DIR", description = "The tracker's data directory.")
    Path data;

    @Option(names = "--role", required = true, paramLabel = "client|donor|admin", description = "What the token may do.")
    String role;

    @Option(names = "--apps", paramLabel = "LIST", description = "Client tokens: the apps (names, or prefixes ending in *) it may touch.")
    String apps;

    @Option(names = "--read-only", description = "Client tokens: no stores, deletes or policy changes.")
    boolean readOnly;

    @Option(names = "--expires", paramLabel = "DURATION", description = "Valid for this long (e.g. 30d; default: until revoked).")
    String expires;

    @Option(names = "--uses", paramLabel = "N|unlimited",
        description = "Donor tokens: how many peers may join with it (default: 1; 'unlimited' for no limit).")
    String uses;

    @Option(names = "--note", paramLabel = "TEXT", description = "What the token is for (shown by 'token list').")
    String note;

    @Option(names = "--tracker", paramLabel = "URL[,URL...]",
        description = {"Ask a running tracker, or a tracker group's members (every member learns the token), instead of "
            + "writing to --data; needs --token-file with an admin token."})
    String tracker;

    @Option(names = "--token-file", paramLabel = "FILE", description = "With --tracker: an admin token.")
    Path tokenFile;

    @Override
    public Integer call() throws Exception {
      CommandLine cl = spec.commandLine();
      Role r;
      try {
        r = Role.parse(role);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(cl, "--role: " + e.getMessage());
      }
      Integer n = uses(cl);
      String refused = TokenStore.refusal(r, apps != null || readOnly, n);
      if (refused != null) {
        throw new CommandLine.ParameterException(cl, (r == Role.PEER ? "--role peer: " : "") + refused);
      }
      if (tracker != null) {
        return overApi(cl, n);
      }
      Path dir = requireData(cl, data);
      Long until = null;
      if (expires != null) {
        try {
          until = Clock.systemUTC().millis() + Durations.parse(expires).toMillis();
        } catch (IllegalArgumentException e) {
          throw new CommandLine.ParameterException(cl, "--expires: " + e.getMessage());
        }
      }
      List<String> scope = apps == null ? null : Arrays.stream(apps.split(",")).map(String::trim).filter(a -> !a.isEmpty()).toList();
      String token = new TokenStore(dir).issue(r, scope, readOnly, until, n, null, note, Clock.systemUTC().millis());
      Path pin = dir.resolve("ca.sha256");
      if (Files.isRegularFile(pin)) {
        token = token + "#sha256:" + Files.readString(pin).strip();
      }
      cl.getOut().println(token);
      return 0;
    }

    /** --uses as a number, {@link TokenStore#UNLIMITED_USES} for 'unlimited', null when absent. */
    private Integer uses(CommandLine cl) {
      if (uses == null) {
        return null;
      }
      if (uses.equalsIgnoreCase("unlimited")) {
        return TokenStore.UNLIMITED_USES;
      }
      try {
        int n = Integer.parseInt(uses.strip());
        if (n >= 1) {
          return n;
        }
      } catch (NumberFormatException e) {
        // answered below
      }
      throw new CommandLine.ParameterException(cl, "--uses takes a number >= 1 or 'unlimited', was '" + uses + "'");
    }

    private int overApi(CommandLine cl, Integer n) throws Exception {
      if (tokenFile == null || data != null) {
        throw new CommandLine.ParameterException(cl, "--tracker takes --token-file (an admin token) and no --data");
      }
      Long seconds = null;
      if (expires != null) {
        try {
          seconds = Math.max(1, Durations.parse(expires).toSeconds());
        } catch (IllegalArgumentException e) {
          throw new CommandLine.ParameterException(cl, "--expires: " + e.getMessage());
        }
      }
      List<String> scope = apps == null ? null : Arrays.stream(apps.split(",")).map(String::trim).filter(a -> !a.isEmpty()).toList();
      List<java.net.URI> trackers = Arrays.stream(tracker.split(",")).map(String::strip).map(java.net.URI::create).toList();
      org.cairn.core.api.TokenRequest.Answer a = new org.cairn.core.api.TrackerClient(trackers,
          org.cairn.core.security.GridToken.readFile(tokenFile), java.time.Duration.ofSeconds(30))
          .createToken(new org.cairn.core.api.TokenRequest(role, scope, readOnly, seconds, n, note));
      cl.getOut().println(a.token());
      return 0;
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List the tokens: id, role, scope, expiry, uses (never secrets).")
  static final class ListTokens implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--data", paramLabel = "DIR", description = "The tracker's data directory.")
    Path data;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      CommandLine cl = spec.commandLine();
      List<TokenRecord> all = new TokenStore(requireData(cl, data)).list();
      if (json) {
        cl.getOut().println(new ObjectMapper().writeValueAsString(all));
        return 0;
      }
      cl.getOut().printf("%-16s  %-6s  %-20s  %-20s  %-6s  %s%n", "ID", "ROLE", "APPS / PEER", "EXPIRES", "USES", "STATE");
      for (TokenRecord t : all) {
        String scope = t.peer() != null ? "peer " + t.peer() : t.apps() == null ? "all" : String.join(",", t.apps());
        cl.getOut().printf("%-16s  %-6s  %-20s  %-20s  %-6s  %s%n", t.id(), t.role() + (t.readOnly() ? " ro" : ""), scope,
            t.expires() == null ? "never" : Instant.ofEpochMilli(t.expires()).toString(), t.uses() != null ? t.uses().toString() : "donor".equals(t.role()) ? "unlim." : "-",
            t.revoked() ? "revoked" : t.expires() != null && t.expires() <= System.currentTimeMillis() ? "expired" : "valid");
      }
      return 0;
    }
  }

  @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a token by its id (from 'token list').")
  static final class Revoke implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--data", paramLabel = "DIR", description = "The tracker's data directory.")
    Path data;

    @Parameters(paramLabel = "ID", description = "The token's id.")
    String id;

    @Override
    public Integer call() throws Exception {
      CommandLine cl = spec.commandLine();
      if (!new TokenStore(requireData(cl, data)).revoke(id)) {
        cl.getErr().println("cairn-tracker: no token with id " + id);
        return 1;
      }
      cl.getOut().println("revoked " + id);
      return 0;
    }
  }
}
