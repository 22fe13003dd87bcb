package org.cairn.gui;

import java.awt.BorderLayout;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import javax.swing.JFrame;
import javax.swing.JLabel;
import javax.swing.JScrollPane;
import javax.swing.JTable;
import javax.swing.Timer;
import javax.swing.border.EmptyBorder;
import javax.swing.table.DefaultTableModel;
import org.cairn.core.config.ByteSize;

/**
 * The donor's activity window (BOINC Manager's transfers, notices and statistics): what this computer
 * holds and has moved for the grid since the peer started, the donor's events newest first, and the
 * usage by day (kept across restarts), refreshed every second.
 */
final class ActivityView {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

  private final JFrame frame = new JFrame("Cairn donor activity");
  private final JLabel totals = new JLabel(" ");
  private final DefaultTableModel rows = new DefaultTableModel(new Object[] {"When", "What"}, 0) {
    @Override
    public boolean isCellEditable(int row, int column) {
      return false;
    }
  };
  private final DefaultTableModel days = new DefaultTableModel(new Object[] {"Day", "Received", "Served", "Most held"}, 0) {
    @Override
    public boolean isCellEditable(int row, int column) {
      return false;
    }
  };
  private final Donor donor;
  private final Timer timer;
  private int shown = -1;

  private ActivityView(Donor donor) {
    this.donor = donor;
    frame.setName("activity");
    totals.setName("totals");
    totals.setBorder(new EmptyBorder(6, 8, 6, 8));
    JTable table = new JTable(rows);
    table.setName("events");
    table.getColumnModel().getColumn(0).setPreferredWidth(150);
    table.getColumnModel().getColumn(1).setPreferredWidth(520);
    JTable usage = new JTable(days);
    usage.setName("usage");
    javax.swing.JTabbedPane tabs = new javax.swing.JTabbedPane();
    tabs.addTab("Events", new JScrollPane(table));
    tabs.addTab("Usage by day", new JScrollPane(usage));
    frame.getContentPane().add(totals, BorderLayout.NORTH);
    frame.getContentPane().add(tabs, BorderLayout.CENTER);
    frame.setSize(720, 360);
    frame.setLocation(60, 60);
    timer = new Timer(1000, e -> refresh());
    frame.addWindowListener(new java.awt.event.WindowAdapter() {
      @Override
      public void windowClosed(java.awt.event.WindowEvent e) {
        timer.stop();
      }
    });
    frame.setDefaultCloseOperation(JFrame.DISPOSE_ON_CLOSE);
  }

  /** Opens the window (on the event thread). */
  static ActivityView open(Donor donor) {
    ActivityView v = new ActivityView(donor);
    v.refresh();
    v.frame.setVisible(true);
    v.timer.start();
    return v;
  }

  /** The totals line, as shown. */
  String totals() {
    return totals.getText();
  }

  int daysShown() {
    return days.getRowCount();
  }

  int eventsShown() {
    return rows.getRowCount();
  }

  void refresh() {
    Donor.Traffic t = donor.traffic();
    totals.setText(String.format(java.util.Locale.ROOT, "%s — holding %s in %d pieces; since start: received %s, served %s",
        donor.displayState(), ByteSize.format(t.used()), t.fragments(), ByteSize.format(t.received()), ByteSize.format(t.served())));
    days.setRowCount(0);
    for (Usage.Day d : donor.usage().days()) {
      days.addRow(new Object[] {d.date(), ByteSize.format(d.received()), ByteSize.format(d.served()), ByteSize.format(d.held())});
    }
    List<Activity.Event> events = donor.activity().events();
    if (events.size() != shown) {
      rows.setRowCount(0);
      for (int i = events.size() - 1; i >= 0; i--) {
        rows.addRow(new Object[] {TIME.format(events.get(i).at()), events.get(i).what()});
      }
      shown = events.size();
    }
  }
}
