package org.cairn.tracker;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.cairn.tracker.tls.TrackerCa;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cairn-tracker ca create --out DIR}: the CA a tracker group shares. */
@Command(name = "ca", mixinStandardHelpOptions = true, description = "Make the certificate authority a tracker group shares.",
    subcommands = {CaCommand.Create.class})
final class CaCommand {

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = {"Make a CA in DIR (ca.key mode 0600, ca.crt; ten years) and print its pin (the #sha256: tokens carry).",
          "Copy DIR to every member of a tracker group and start each with --tls-ca DIR; keep ca.key as "
          + "secret as the admin token. An existing CA in DIR is never replaced."})
  static final class Create implements Callable<Integer> {
    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Directory for the CA (made if missing).")
    Path out;

    @Override
    public Integer call() throws Exception {
      String pin = TrackerCa.create(out);
      System.out.println(pin);
      System.err.println("made a CA in " + out + " (sha256:" + pin + "); start every member with --tls-ca " + out
          + ", and add #sha256:" + pin + " to token files without a pin");
      return 0;
    }
  }
}
