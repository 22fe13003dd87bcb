package org.cairn.sim.durability;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.cairn.sim.plot.LineChart;

/** The study's figures as PNGs: live pieces beyond m per day, repair traffic per day, donors up over the month. */
final class DurabilityPlots {
  private static final Color[] COLORS = {new Color(0, 114, 178), new Color(213, 94, 0), new Color(0, 158, 115),
      new Color(204, 121, 167), new Color(86, 86, 86), new Color(230, 159, 0), new Color(86, 180, 233)};

  private DurabilityPlots() {}

  /** Writes the three charts into {@code dir}; returns their paths. */
  static List<Path> write(DurabilityStudy.Result r, Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    LineChart live = new LineChart("Fewest live pieces beyond m of any kept version, per day (below 0: unreadable)",
        "day of the month", "live pieces - m");
    LineChart traffic = new LineChart("Repair traffic per donor per day (sent + received, mean over donors)", "day of the month",
        "MB per donor");
    List<String> schemes = r.settings().schemes();
    for (RunResult x : r.runs()) {
      Color c = COLORS[schemes.indexOf(x.scheme()) % COLORS.length];
      boolean dashed = x.placement().equals("random");
      if (x.placement().startsWith("capped")) { // solid, paler: FALCON with the cap
        c = new Color((c.getRed() + 255) / 2, (c.getGreen() + 255) / 2, (c.getBlue() + 255) / 2);
      }
      double[] days = new double[x.minSurplusByDay().length];
      double[] surplus = new double[days.length];
      for (int d = 0; d < days.length; d++) {
        days[d] = d + 1;
        surplus[d] = x.minSurplusByDay()[d] == Integer.MAX_VALUE ? Double.NaN : x.minSurplusByDay()[d];
      }
      live.add(new LineChart.Series(x.label(), c, dashed, days, surplus));
      traffic.add(new LineChart.Series(x.label(), c, dashed, days, x.repairMbMeanByDay()));
    }
    out.add(write(live, dir.resolve("durability-live-pieces.png")));
    out.add(write(traffic, dir.resolve("durability-repair-traffic.png")));
    int[][] byHour = r.donorsByHour();
    double[] hours = new double[byHour[0].length];
    double[][] ys = new double[3][hours.length];
    for (int h = 0; h < hours.length; h++) {
      hours[h] = h / 24.0;
      ys[0][h] = byHour[0][h];
      ys[1][h] = byHour[1][h];
      ys[2][h] = byHour[2][h];
    }
    LineChart donors = new LineChart("Donors over the month (sampled hourly)", "day of the month", "donors")
        .add(new LineChart.Series("RUNNING", COLORS[2], false, hours, ys[0]))
        .add(new LineChart.Series("BUSY (owner active)", COLORS[5], false, hours, ys[1]))
        .add(new LineChart.Series("DOWN (outage, left, disk)", COLORS[1], false, hours, ys[2]));
    out.add(write(donors, dir.resolve("durability-donors.png")));
    return out;
  }

  private static Path write(LineChart chart, Path file) throws IOException {
    chart.write(file);
    return file;
  }
}
