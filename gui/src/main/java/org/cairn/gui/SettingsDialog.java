package org.cairn.gui;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.GridLayout;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javax.swing.JButton;
import javax.swing.JDialog;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JPasswordField;
import javax.swing.JTextField;
import javax.swing.SwingUtilities;
import javax.swing.border.EmptyBorder;
import javax.swing.text.JTextComponent;

/**
 * The donor's settings dialog (BOINC Manager's preferences): tracker and grid token (checked with the
 * tracker before anything is saved), donated space, data directory, listen address, and the donation
 * rules (busy CPU threshold, hours, daily upload cap, network limit: the peer's bandwidth cap). Save
 * validates, checks the connection off the event thread, then hands the settings to the {@link Saver};
 * a problem is shown in the dialog and nothing is saved. Every field has a component name, so tests find it.
 */
final class SettingsDialog {
  /** Saves and applies the settings; returns null, or what went wrong. */
  interface Saver {
    String save(DonorSettings settings, String token) throws Exception;
  }

  static final String[][] FIELDS = {
      {"tracker", "Tracker URL (from the grid's operator)", "tracker"},
      {"token", "Grid token", null},
      {"quota", "Disk space to donate (e.g. 20GiB)", "quota"},
      {"data", "Data directory (where pieces are kept)", "data"},
      {"listen", "Listen address (HOST:PORT others reach this computer at)", "listen"},
      {"advertise", "Address to announce, if not the listen host (optional)", "advertise"},
      {"busyPercent", "Busy above this CPU use, % (100: never)", null},
      {"busyAfter", "... for this long (e.g. 60s)", DonorSettings.BUSY_AFTER},
      {"hours", "Donate only between (e.g. 08:00-18:00; empty: always)", DonorSettings.HOURS},
      {"cap", "Daily upload cap (e.g. 5GiB; empty: none)", DonorSettings.CAP},
      {"bandwidth", "Network limit, each direction, per second (e.g. 2MiB; empty: none)", "bandwidth-cap"},
      {"boinc", "Follow BOINC's preferences in (directory; empty: no)", BoincAdoption.DIR}};

  private final JDialog dialog;
  private final Map<String, JTextComponent> fields = new LinkedHashMap<>();
  private final JLabel message = new JLabel(" ");
  private final DonorSettings base;
  private final Saver saver;
  private final JButton save = new JButton("Save");
  private final CompletableFuture<Boolean> closed = new CompletableFuture<>();
  private volatile boolean saved;

  private SettingsDialog(String title, DonorSettings base, String token, DonorRules.Settings rules, Saver saver) {
    this.base = base;
    this.saver = saver;
    dialog = new JDialog((java.awt.Frame) null, title, false);
    dialog.setName("settings");
    JPanel form = new JPanel(new GridLayout(0, 2, 6, 4));
    form.setBorder(new EmptyBorder(8, 8, 8, 8));
    for (String[] f : FIELDS) {
      JTextComponent c = f[0].equals("token") ? new JPasswordField(28) : new JTextField(28);
      c.setName(f[0]);
      c.setText(f[0].equals("token") ? token : f[0].equals("busyPercent") ? busyPercent(base, rules)
          : f[2].startsWith("donor-") && base.get(f[2]).isEmpty() ? ruleDefault(f[2], rules) : base.get(f[2]));
      fields.put(f[0], c);
      form.add(new JLabel(f[1] + ":"));
      form.add(c);
    }
    message.setName("message");
    JButton check = new JButton("Check connection");
    check.setName("check");
    check.addActionListener(e -> check());
    save.setName("save");
    save.addActionListener(e -> save());
    JButton cancel = new JButton("Cancel");
    cancel.setName("cancel");
    cancel.addActionListener(e -> dialog.dispose());
    JPanel buttons = new JPanel();
    buttons.add(check);
    buttons.add(save);
    buttons.add(cancel);
    JPanel south = new JPanel(new BorderLayout());
    south.setBorder(new EmptyBorder(0, 8, 8, 8));
    south.add(message, BorderLayout.NORTH);
    south.add(buttons, BorderLayout.SOUTH);
    dialog.getContentPane().add(form, BorderLayout.CENTER);
    dialog.getContentPane().add(south, BorderLayout.SOUTH);
    dialog.getRootPane().setDefaultButton(save);
    dialog.setDefaultCloseOperation(JDialog.DISPOSE_ON_CLOSE);
    dialog.addWindowListener(new java.awt.event.WindowAdapter() {
      @Override
      public void windowClosed(java.awt.event.WindowEvent e) {
        closed.complete(saved);
      }
    });
    dialog.pack();
    dialog.setLocation(40, 40);
  }

  /** Opens the dialog (on the event thread) with the current settings, the token and the rules in force. */
  static SettingsDialog open(String title, DonorSettings base, String token, DonorRules.Settings rules, Saver saver) {
    SettingsDialog d = new SettingsDialog(title, base, token, rules, saver);
    d.dialog.setVisible(true);
    return d;
  }

  /** Completes when the dialog closes: true once saved, false when cancelled. */
  CompletableFuture<Boolean> closed() {
    return closed;
  }

  void dispose() {
    dialog.dispose();
  }

  JTextComponent field(String name) {
    return fields.get(name);
  }

  String message() {
    return message.getText();
  }

  boolean showing() {
    return dialog.isDisplayable();
  }

  /** The settings as entered. */
  DonorSettings entered() {
    DonorSettings s = base;
    for (String[] f : FIELDS) {
      if (f[2] != null) {
        s = s.with(f[2], fields.get(f[0]).getText());
      }
    }
    String percent = fields.get("busyPercent").getText().trim();
    try {
      double p = Double.parseDouble(percent.replace("%", "").trim());
      s = s.with(DonorSettings.BUSY_CPU, Double.toString(p / 100));
    } catch (NumberFormatException e) {
      s = s.with(DonorSettings.BUSY_CPU, percent); // reported by problem()
    }
    return s;
  }

  /** Checks the tracker and token now, and says so in the dialog. */
  CompletableFuture<String> check() {
    String tracker = fields.get("tracker").getText().trim();
    String token = fields.get("token").getText();
    show("Checking " + tracker + " …", Color.DARK_GRAY);
    return CompletableFuture.supplyAsync(() -> ConnectionCheck.problem(tracker, token)).thenApply(p -> {
      SwingUtilities.invokeLater(() -> show(p == null ? "The tracker accepts this token." : "Not connected: " + p,
          p == null ? new Color(0x2e7d32) : Color.RED));
      return p;
    });
  }

  /** Save: validate, check the connection, then save and apply; completes with null or the problem shown. */
  CompletableFuture<String> save() {
    DonorSettings s = entered();
    String problem = s.problem();
    if (problem != null) {
      show("Not saved: " + problem, Color.RED);
      return CompletableFuture.completedFuture(problem);
    }
    String token = fields.get("token").getText();
    save.setEnabled(false);
    show("Checking " + s.get("tracker") + " …", Color.DARK_GRAY);
    return CompletableFuture.supplyAsync(() -> {
      String p = ConnectionCheck.problem(s.get("tracker"), token);
      if (p != null) {
        return "Not saved: " + p;
      }
      try {
        String q = saver.save(s, token);
        return q == null ? null : "Not saved: " + q;
      } catch (Exception e) {
        return "Not saved: " + (e.getMessage() == null ? e.toString() : e.getMessage());
      }
    }).thenApply(p -> {
      SwingUtilities.invokeLater(() -> {
        save.setEnabled(true);
        if (p == null) {
          saved = true;
          dialog.dispose();
        } else {
          show(p, Color.RED);
        }
      });
      return p;
    });
  }

  private void show(String text, Color colour) {
    message.setForeground(colour);
    message.setText(text);
    dialog.pack();
  }

  /** The settings' busy threshold (e.g. BOINC's, adopted at the first run), else the rules', as a percentage. */
  private static String busyPercent(DonorSettings base, DonorRules.Settings rules) {
    try {
      double f = base.get(DonorSettings.BUSY_CPU).isEmpty() ? rules.busyCpu() : Double.parseDouble(base.get(DonorSettings.BUSY_CPU));
      return Long.toString(Math.round(f * 100));
    } catch (NumberFormatException e) {
      return base.get(DonorSettings.BUSY_CPU); // shown as it is, and named by problem() on Save
    }
  }

  private static String ruleDefault(String key, DonorRules.Settings r) {
    return switch (key) {
      case DonorSettings.BUSY_AFTER -> r.busyAfter().toSeconds() + "s";
      case DonorSettings.HOURS -> r.hours().toString();
      case DonorSettings.CAP -> r.dailyUploadCap() == 0 ? "" : org.cairn.core.config.ByteSize.format(r.dailyUploadCap()).replace(" ", "");
      default -> "";
    };
  }

  /** First-run values: a data directory under the home, a tenth of its free space, every interface on port 7700. */
  static DonorSettings firstRun(Path file) throws java.io.IOException {
    Path data = Path.of(System.getProperty("user.home"), ".local", "share", "cairn", "donor");
    java.nio.file.Files.createDirectories(data);
    long free = java.nio.file.Files.getFileStore(data).getUsableSpace();
    long suggested = Math.max(1L << 30, (free / 10) >> 30 << 30);
    return new DonorSettings(Map.of()).with("tracker", "https://").with("token-file", file.resolveSibling("donor-token").toString())
        .with("data", data.toString()).with("quota", org.cairn.core.config.ByteSize.format(suggested).replace(" ", ""))
        .with("listen", "0.0.0.0:7700").with("advertise", java.net.InetAddress.getLocalHost().getHostAddress());
  }
}
