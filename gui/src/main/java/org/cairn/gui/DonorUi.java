package org.cairn.gui;

import java.awt.AWTException;
import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Desktop;
import java.awt.FlowLayout;
import java.awt.Graphics2D;
import java.awt.GridLayout;
import java.awt.MenuItem;
import java.awt.PopupMenu;
import java.awt.RenderingHints;
import java.awt.SystemTray;
import java.awt.TrayIcon;
import java.awt.image.BufferedImage;
import java.net.URI;
import java.util.Map;
import javax.swing.JButton;
import javax.swing.JFrame;
import javax.swing.JLabel;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.SwingUtilities;
import javax.swing.Timer;
import org.cairn.core.config.ByteSize;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The donor's face: a tray icon whose colour shows the state, with the menu status line, Pause /
 * Resume, Set quota…, Open status page, Settings… (the settings dialog), Activity… (the activity window), Quit. Where no tray exists (or with --window) a
 * small window with the same controls. Everything runs on the Swing event thread; the menu items
 * and the window's buttons call the same actions as the test hook.
 */
final class DonorUi {
  private static final Logger LOG = LoggerFactory.getLogger(DonorUi.class);
  static final Map<String, Color> COLOURS = Map.of("RUNNING", new Color(0x2e7d32), "FULL", new Color(0x6a1b9a), "LOADED",
      new Color(0xf9a825), "BUSY", new Color(0xef6c00), "PAUSED", new Color(0x78909c), "DOWN", new Color(0xc62828));

  private final Donor donor;
  private final Runnable quit;
  private TrayIcon icon;
  private MenuItem status;
  private MenuItem pauseItem;
  private JFrame window;
  private JLabel windowStatus;
  private JButton pauseButton;
  private String shownState;

  DonorUi(Donor donor, Runnable quit) {
    this.donor = donor;
    this.quit = quit;
  }

  /** Shows the tray icon, or the window if there is no tray or {@code forceWindow}; returns which. */
  String show(boolean forceWindow) throws Exception {
    String[] mode = new String[1];
    SwingUtilities.invokeAndWait(() -> {
      if (!forceWindow && SystemTray.isSupported()) {
        try {
          showTray();
          mode[0] = "tray";
        } catch (AWTException e) {
          LOG.warn("the system tray refused the icon ({}); opening a window instead", e.getMessage());
        }
      }
      if (mode[0] == null) {
        showWindow();
        mode[0] = "window";
      }
      new Timer(1000, e -> refresh()).start();
      refresh();
    });
    return mode[0];
  }

  private void showTray() throws AWTException {
    PopupMenu menu = new PopupMenu();
    status = new MenuItem("starting…");
    status.setEnabled(false);
    pauseItem = new MenuItem("Pause donating");
    pauseItem.addActionListener(e -> togglePause());
    MenuItem quota = new MenuItem("Set quota…");
    quota.addActionListener(e -> askQuota());
    MenuItem page = new MenuItem("Open status page");
    page.addActionListener(e -> openStatusPage());
    MenuItem settings = new MenuItem("Settings…");
    settings.addActionListener(e -> openSettings());
    MenuItem activityItem = new MenuItem("Activity…");
    activityItem.addActionListener(e -> openActivity());
    MenuItem exit = new MenuItem("Quit");
    exit.addActionListener(e -> quit.run());
    menu.add(status);
    menu.addSeparator();
    menu.add(pauseItem);
    menu.add(quota);
    menu.add(page);
    menu.add(settings);
    menu.add(activityItem);
    menu.addSeparator();
    menu.add(exit);
    icon = new TrayIcon(image("DOWN", 24), "Cairn donor", menu);
    icon.setImageAutoSize(true);
    SystemTray.getSystemTray().add(icon);
  }

  private void showWindow() {
    window = new JFrame("Cairn donor");
    window.setDefaultCloseOperation(JFrame.DO_NOTHING_ON_CLOSE);
    window.addWindowListener(new java.awt.event.WindowAdapter() {
      @Override
      public void windowClosing(java.awt.event.WindowEvent e) {
        quit.run();
      }
    });
    windowStatus = new JLabel("starting…");
    windowStatus.setIcon(new javax.swing.ImageIcon(image("DOWN", 16)));
    pauseButton = new JButton("Pause donating");
    pauseButton.setName("pause");
    pauseButton.addActionListener(e -> togglePause());
    JButton quota = new JButton("Set quota…");
    quota.addActionListener(e -> askQuota());
    JButton page = new JButton("Open status page");
    page.addActionListener(e -> openStatusPage());
    JButton settings = new JButton("Settings…");
    settings.setName("settingsButton");
    settings.addActionListener(e -> openSettings());
    JButton activityButton = new JButton("Activity…");
    activityButton.setName("activityButton");
    activityButton.addActionListener(e -> openActivity());
    JButton exit = new JButton("Quit");
    exit.addActionListener(e -> quit.run());
    JPanel buttons = new JPanel(new GridLayout(1, 0, 4, 4));
    buttons.add(pauseButton);
    buttons.add(quota);
    buttons.add(page);
    buttons.add(settings);
    buttons.add(activityButton);
    buttons.add(exit);
    JPanel top = new JPanel(new FlowLayout(FlowLayout.LEFT));
    top.add(windowStatus);
    window.getContentPane().add(top, BorderLayout.NORTH);
    window.getContentPane().add(buttons, BorderLayout.SOUTH);
    window.pack();
    window.setLocation(20, 20);
    window.setVisible(true);
  }

  /** Updates the icon colour, tooltip and status line from the donor (called every second). */
  void refresh() {
    String state = donor.displayState();
    String line = donor.statusLine();
    // a tray tooltip is one line on most desktops: no line break, and the explanation last (it may be clipped)
    String tip = "Cairn donor: " + line + ". " + Donor.explain(state);
    if (icon != null) {
      if (!state.equals(shownState)) {
        icon.setImage(image(state, 24));
      }
      icon.setToolTip(tip);
      status.setLabel(line);
      pauseItem.setLabel(donor.paused() ? "Resume donating" : "Pause donating");
    }
    if (window != null) {
      if (!state.equals(shownState)) {
        windowStatus.setIcon(new javax.swing.ImageIcon(image(state, 16)));
      }
      windowStatus.setText(line);
      windowStatus.setToolTipText(Donor.explain(state));
      pauseButton.setText(donor.paused() ? "Resume donating" : "Pause donating");
    }
    shownState = state;
  }

  void togglePause() {
    if (donor.paused()) {
      donor.resume();
    } else {
      donor.pause();
    }
    refresh();
  }

  private void askQuota() {
    String current = ByteSize.format(donor.quota());
    String answer = JOptionPane.showInputDialog(null, "Disk space to donate (e.g. 20GiB):", current);
    if (answer == null || answer.isBlank()) {
      return;
    }
    try {
      donor.setQuota(ByteSize.parse(answer.trim()));
    } catch (IllegalArgumentException e) {
      JOptionPane.showMessageDialog(null, e.getMessage(), "Cairn donor", JOptionPane.ERROR_MESSAGE);
    } catch (Exception e) {
      JOptionPane.showMessageDialog(null, "Could not save the new quota: " + e.getMessage(), "Cairn donor",
          JOptionPane.ERROR_MESSAGE);
    }
    refresh();
  }

  private void openStatusPage() {
    URI page = donor.config().tracker().resolve("/");
    try {
      if (Desktop.isDesktopSupported() && Desktop.getDesktop().isSupported(Desktop.Action.BROWSE)) {
        Desktop.getDesktop().browse(page);
        return;
      }
    } catch (Exception e) {
      LOG.info("could not open a browser: {}", e.getMessage());
    }
    JOptionPane.showMessageDialog(null, "The grid's status page is at\n" + page, "Cairn donor", JOptionPane.INFORMATION_MESSAGE);
  }

  /** Opens the settings dialog (on the event thread); with peer flags instead of a settings file, says what is in force. */
  SettingsDialog openSettings() {
    if (donor.settingsFile() == null) {
      JOptionPane.showMessageDialog(null, "Started with peer flags (tracker " + donor.config().tracker() + ", data "
          + donor.config().dataDir() + "): settings are edited in a settings file; start cairn-donor without peer flags to use one.",
          "Cairn donor settings", JOptionPane.INFORMATION_MESSAGE);
      return null;
    }
    try {
      DonorSettings current = donor.settings();
      return SettingsDialog.open("Cairn donor settings", current, current.token(), donor.rules(), (s, token) -> {
        String problem = donor.reconfigure(s, token);
        SwingUtilities.invokeLater(this::refresh);
        return problem;
      });
    } catch (java.io.IOException e) {
      JOptionPane.showMessageDialog(null, "Could not read the settings: " + e.getMessage(), "Cairn donor", JOptionPane.ERROR_MESSAGE);
      return null;
    }
  }

  /** Opens the activity window (on the event thread). */
  ActivityView openActivity() {
    return ActivityView.open(donor);
  }

  void dispose() {
    if (icon != null) {
      SystemTray.getSystemTray().remove(icon);
    }
    if (window != null) {
      window.dispose();
    }
  }

  /** A filled circle in the state's colour. */
  static BufferedImage image(String state, int size) {
    BufferedImage img = new BufferedImage(size, size, BufferedImage.TYPE_INT_ARGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(COLOURS.getOrDefault(state, Color.GRAY));
    g.fillOval(1, 1, size - 2, size - 2);
    g.setColor(Color.WHITE);
    g.fillOval(size / 3, size / 3, size / 3, size / 3);
    g.dispose();
    return img;
  }
}
