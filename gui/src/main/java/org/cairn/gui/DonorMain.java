package org.cairn.gui;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import javax.swing.SwingUtilities;
import org.cairn.core.config.ByteSize;
import org.cairn.peer.PeerConfig;
import org.cairn.peer.PeerMain;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code java -jar cairn-donor.jar}: the donor tray app. Runs a peer in-process with the same
 * settings as {@code cairn-peer.jar} (its flags, or its YAML file), shows a tray icon (or a window
 * where there is no tray), and applies the donor rules. {@code --headless} runs without any UI.
 */
@Command(name = "cairn-donor", mixinStandardHelpOptions = true, version = "cairn-donor 0.1.0",
    description = {"The Cairn donor app: donates disk space to a Cairn grid from a tray icon.",
        "Any cairn-peer flag (--tracker, --token-file, --data, --listen, --quota, ...) may be given; without them the "
        + "settings file is used, and on the first run a dialog asks for the tracker, the token and a quota.",
        "Exit codes: 0 stopped normally, 1 failed to start, 2 usage error."})
public final class DonorMain implements Callable<Integer> {
  @Option(names = "--headless", description = "No tray icon or window (servers, tests).")
  boolean headless;

  @Option(names = "--window", description = "Show a window even where a system tray exists.")
  boolean window;

  @Option(names = "--settings", paramLabel = "FILE",
      description = "Settings file (cairn-peer YAML) used when no peer flags are given (default: ~/.config/cairn/donor.yaml).")
  Path settings;

  @Option(names = "--control-stdin",
      description = "Accessibility and test hook: read pause, resume, status, quota SIZE and quit commands from standard input.")
  boolean controlStdin;

  @Option(names = "--busy-cpu", defaultValue = "0.8", paramLabel = "FRACTION",
      description = "Stop taking new data while CPU load stays above this (default: ${DEFAULT-VALUE}; 1 turns it off).")
  double busyCpu;

  @Option(names = "--busy-after", defaultValue = "60s", paramLabel = "DURATION",
      description = "How long the load must stay above (or below) the threshold (default: ${DEFAULT-VALUE}).")
  String busyAfter;

  @Option(names = "--busy-on-input", paramLabel = "DURATION", defaultValue = "never",
      description = {"Count the owner as using the computer from any pointer movement until DURATION passes without one: "
          + "no new data meanwhile, and this user's Cairn jobs are told to checkpoint when the owner comes back (as for "
          + "the CPU rule and the end of the donation hours); 'never' to not watch input (default: ${DEFAULT-VALUE})."})
  String busyOnInput;

  @Option(names = "--hours", paramLabel = "HOURS", description = "Donate only within these hours, e.g. 08:00-18:00 or "
      + "'22:00-06:00, sat 09:00-13:00, sun 00:00-00:00' (a day's own window; equal ends: all day) (default: always).")
  String hours;

  @Option(names = "--daily-upload-cap", paramLabel = "SIZE", description = "Stop taking new work after uploading this much in a day.")
  String dailyUploadCap;

  @Option(names = "--boinc-dir", paramLabel = "DIR", defaultValue = "/var/lib/boinc-client",
      description = "Where BOINC keeps its preferences; on the first run the app offers to adopt them and follow them "
          + "(default: ${DEFAULT-VALUE}).")
  Path boincDir;

  @CommandLine.Unmatched
  List<String> peerArgs = new ArrayList<>();

  public static void main(String[] args) {
    int code = new CommandLine(new DonorMain())
        .setParameterExceptionHandler((ex, a) -> { // one line and a hint, as cairn and cairn-tracker print
          ex.getCommandLine().getErr().println("cairn-donor: " + ex.getMessage());
          ex.getCommandLine().getErr().println("Try 'cairn-donor --help' for more information.");
          return 2;
        })
        .setExecutionExceptionHandler((e, cmd, parsed) -> {
          cmd.getErr().println("cairn-donor: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
          return 1;
        })
        .execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  @Override
  public Integer call() throws Exception {
    CommandLine cl = new CommandLine(this);
    DonorRules.Settings rules;
    java.time.Duration inputIdle;
    try {
      rules = DonorRules.Settings.parse(busyCpu, busyAfter, hours, dailyUploadCap);
      inputIdle = busyOnInput.equals("never") ? null : org.cairn.core.config.Durations.parse(busyOnInput);
      if (inputIdle != null && inputIdle.isZero()) {
        throw new IllegalArgumentException("--busy-on-input must be positive, or 'never'");
      }
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    }
    Path file = settings != null ? settings : Path.of(System.getProperty("user.home"), ".config", "cairn", "donor.yaml");
    Path remember = null;
    if (peerArgs.isEmpty()) {
      if (!Files.exists(file)) {
        if (headless || java.awt.GraphicsEnvironment.isHeadless()) {
          throw new CommandLine.ParameterException(cl, "no settings: give peer flags (--tracker URL --token-file F --data DIR "
              + "--quota SIZE) or a settings file (" + file + ")");
        }
        if (!firstRun(file, boincDir)) {
          return 0;
        }
      }
      remember = file;
    }
    if (!headless) {
      System.setProperty("java.awt.headless", "false");
    }
    PeerConfig peer;
    try {
      peer = remember != null ? DonorSettings.load(remember).peerConfig(remember) : PeerMain.parse(peerArgs.toArray(String[]::new));
    } catch (CommandLine.ParameterException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    }
    Donor donor = new Donor(peer, remember, rules);
    if (inputIdle != null && !headless) {
      donor.watchOwnerInput(inputIdle);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    DonorUi[] ui = new DonorUi[1];
    Runnable quit = () -> {
      donor.close();
      if (ui[0] != null) {
        SwingUtilities.invokeLater(ui[0]::dispose);
      }
      stopped.countDown();
    };
    Runtime.getRuntime().addShutdownHook(new Thread(donor::close, "donor-shutdown"));
    System.out.println("cairn-donor " + donor.daemon().id() + " serving on " + donor.daemon().address() + ", tracker "
        + donor.config().tracker());
    if (!headless) {
      ui[0] = new DonorUi(donor, quit);
      System.out.println("cairn-donor: showing a " + ui[0].show(window));
    }
    System.out.flush();
    if (controlStdin) {
      Thread t = new Thread(() -> control(donor, ui[0], quit), "donor-control");
      t.setDaemon(true);
      t.start();
    }
    stopped.await();
    System.exit(0);
    return 0;
  }

  /** The text hook: the same actions as the menu, one command per line, each answered with one line. */
  private static void control(Donor donor, DonorUi ui, Runnable quit) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        String[] w = line.trim().split("\\s+");
        try {
          switch (w[0]) {
            case "pause", "resume" -> {
              boolean pause = w[0].equals("pause");
              if (donor.paused() != pause) {
                if (ui != null) {
                  SwingUtilities.invokeAndWait(ui::togglePause);
                } else if (pause) {
                  donor.pause();
                } else {
                  donor.resume();
                }
              }
              reply("ok " + w[0]);
            }
            case "status" -> reply("status " + donor.displayState() + " " + donor.statusLine());
            case "quota" -> {
              donor.setQuota(ByteSize.parse(w[1]));
              reply("ok quota " + donor.quota());
            }
            case "settings" -> reply(settings(ui, w));
            case "activity" -> reply(activity(donor, ui));
            case "quit" -> {
              reply("ok quit");
              quit.run();
              return;
            }
            case "" -> { }
            default -> reply("error unknown command '" + w[0] + "' (pause, resume, status, quota SIZE, settings KEY=VALUE..., activity,"
                + " quit)");
          }
        } catch (Exception e) {
          reply("error " + e.getMessage());
        }
      }
    } catch (java.io.IOException e) {
      // stdin closed
    }
  }

  /**
   * {@code settings KEY=VALUE ...}: opens the Settings dialog, types each value into the field of that
   * name ({@link SettingsDialog#FIELDS}) and presses Save, as a user would; answers with what the dialog says.
   */
  private static String settings(DonorUi ui, String[] w) throws Exception {
    if (ui == null) {
      return "error settings: no dialog without a tray or window (--headless)";
    }
    SettingsDialog[] d = new SettingsDialog[1];
    SwingUtilities.invokeAndWait(() -> d[0] = ui.openSettings());
    if (d[0] == null) {
      return "error settings: no settings file (started with peer flags)";
    }
    java.util.concurrent.CompletableFuture<String> outcome = new java.util.concurrent.CompletableFuture<>();
    SwingUtilities.invokeAndWait(() -> {
      for (int i = 1; i < w.length; i++) {
        int eq = w[i].indexOf('=');
        javax.swing.text.JTextComponent f = eq < 0 ? null : d[0].field(w[i].substring(0, eq));
        if (f == null) {
          outcome.complete("no field '" + w[i] + "'");
          return;
        }
        f.setText(w[i].substring(eq + 1));
      }
      d[0].save().thenAccept(outcome::complete);
    });
    String problem = outcome.get(60, java.util.concurrent.TimeUnit.SECONDS);
    if (problem == null) {
      return "ok settings saved";
    }
    SwingUtilities.invokeAndWait(() -> { }); // the dialog has shown the problem
    String shown = d[0].message();
    SwingUtilities.invokeAndWait(d[0]::dispose);
    return "error settings " + (shown.isBlank() ? problem : shown);
  }

  /** {@code activity}: opens the activity window and answers with its totals and its last ten events, oldest first. */
  private static String activity(Donor donor, DonorUi ui) throws Exception {
    if (ui == null) {
      return "error activity: no window (--headless)";
    }
    ActivityView[] v = new ActivityView[1];
    SwingUtilities.invokeAndWait(() -> v[0] = ui.openActivity());
    java.util.List<Activity.Event> events = donor.activity().events();
    java.util.List<String> last = events.subList(Math.max(0, events.size() - 10), events.size()).stream().map(Activity.Event::what)
        .toList();
    java.util.List<Usage.Day> days = donor.usage().days();
    String today = days.isEmpty() ? "no usage yet" : "today " + days.get(0).date() + " received " + days.get(0).received() + " B, served "
        + days.get(0).served() + " B";
    return "activity " + v[0].eventsShown() + " events, " + v[0].daysShown() + " days; " + v[0].totals() + "; " + today + "; latest: "
        + String.join(" | ", last);
  }

  private static synchronized void reply(String s) {
    System.out.println(s);
    System.out.flush();
  }

  /**
   * First run: the settings dialog with first-run values (it shows the data directory and listen
   * address it will use, and checks the token with the tracker before saving). False if cancelled.
   */
  private static boolean firstRun(Path file, Path boincDir) throws Exception {
    DonorSettings initial = BoincOffer.ask(SettingsDialog.firstRun(file), boincDir);
    SettingsDialog[] d = new SettingsDialog[1];
    SwingUtilities.invokeAndWait(() -> d[0] = SettingsDialog.open("Cairn donor: first run", initial, "",
        DonorRules.Settings.parse(0.8, "60s", "", ""), (s, token) -> {
          s.save(file, token);
          return null;
        }));
    return d[0].closed().get();
  }
}
