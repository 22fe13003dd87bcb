package org.cairn.it.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One experiment's results: rows of named values, written as CSV and a Markdown table, and plotted
 * with XChart into PNG files beside them (docs/benchmarks/NAME.*).
 */
final class Report {
  private final String name;
  private final List<String> columns;
  private final List<List<Object>> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  /**
   * Appended to every report's name and heading when the whole run is a variant (e.g. "-delay5ms"
   * for experiment.sh --delay 5ms), so its files land beside the default run's instead of over them.
   */
  static String variant = "";
  static String variantHeading = "";

  Report(String name, String... columns) {
    this.name = name + variant;
    this.columns = List.of(columns);
  }

  void row(Object... values) {
    if (values.length != columns.size()) {
      throw new IllegalArgumentException(columns.size() + " columns, " + values.length + " values");
    }
    rows.add(List.of(values));
    System.out.println(name + ": " + format(List.of(values)));
  }

  void note(String text) {
    notes.add(text);
    System.out.println(name + ": " + text);
  }

  /** Values of column {@code y} against column {@code x}, one series per distinct value of column {@code series}. */
  Map<String, double[][]> series(String series, String x, String y) {
    int s = columns.indexOf(series);
    int xi = columns.indexOf(x);
    int yi = columns.indexOf(y);
    Map<String, List<double[]>> points = new LinkedHashMap<>();
    for (List<Object> r : rows) {
      Object yv = r.get(yi);
      if (yv instanceof Number) {
        points.computeIfAbsent(String.valueOf(r.get(s)), k -> new ArrayList<>())
            .add(new double[] {((Number) r.get(xi)).doubleValue(), ((Number) yv).doubleValue()});
      }
    }
    Map<String, double[][]> out = new LinkedHashMap<>();
    points.forEach((k, v) -> {
      double[][] xy = new double[2][v.size()];
      for (int i = 0; i < v.size(); i++) {
        xy[0][i] = v.get(i)[0];
        xy[1][i] = v.get(i)[1];
      }
      out.put(k, xy);
    });
    return out;
  }

  /** A line chart of {@link #series}, saved as DIR/NAME[-suffix].png. */
  Path lineChart(Path dir, String suffix, String title, String series, String x, String y, String xTitle, String yTitle)
      throws IOException {
    XYChart chart = new XYChartBuilder().width(800).height(500).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setMarkerSize(7);
    for (Map.Entry<String, double[][]> e : series(series, x, y).entrySet()) {
      chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]).setMarker(SeriesMarkers.CIRCLE);
    }
    Path png = dir.resolve(name + (suffix.isEmpty() ? "" : "-" + suffix) + ".png");
    Files.createDirectories(dir);
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    return png;
  }

  /** A grouped bar chart: categories from column {@code category}, one bar series per value of {@code series}. */
  Path barChart(Path dir, String suffix, String title, String series, String category, String y, String yTitle) throws IOException {
    CategoryChart chart = new CategoryChartBuilder().width(800).height(500).title(title).xAxisTitle(category).yAxisTitle(yTitle).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    int s = columns.indexOf(series);
    int c = columns.indexOf(category);
    int yi = columns.indexOf(y);
    Map<String, Map<String, Double>> data = new LinkedHashMap<>();
    List<String> categories = new ArrayList<>();
    for (List<Object> r : rows) {
      String cat = String.valueOf(r.get(c));
      if (!categories.contains(cat)) {
        categories.add(cat);
      }
      if (r.get(yi) instanceof Number) {
        data.computeIfAbsent(String.valueOf(r.get(s)), k -> new LinkedHashMap<>()).put(cat, ((Number) r.get(yi)).doubleValue());
      }
    }
    for (Map.Entry<String, Map<String, Double>> e : data.entrySet()) {
      List<Double> ys = new ArrayList<>();
      for (String cat : categories) {
        ys.add(e.getValue().getOrDefault(cat, 0.0));
      }
      chart.addSeries(e.getKey(), categories, ys);
    }
    Path png = dir.resolve(name + (suffix.isEmpty() ? "" : "-" + suffix) + ".png");
    Files.createDirectories(dir);
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    return png;
  }

  /** Writes DIR/NAME.csv and DIR/NAME.md (the table and the notes). */
  void write(Path dir, String heading, String command) throws IOException {
    heading = heading + variantHeading;
    Files.createDirectories(dir);
    StringBuilder csv = new StringBuilder(String.join(",", columns)).append('\n');
    for (List<Object> r : rows) {
      List<String> cells = new ArrayList<>();
      for (Object o : r) {
        cells.add(String.valueOf(o).replace(',', ';'));
      }
      csv.append(String.join(",", cells)).append('\n');
    }
    Files.writeString(dir.resolve(name + ".csv"), csv.toString());
    StringBuilder md = new StringBuilder("### ").append(heading).append("\n\n```sh\n").append(command).append("\n```\n\n");
    md.append("| ").append(String.join(" | ", columns)).append(" |\n|");
    md.append("---|".repeat(columns.size())).append('\n');
    for (List<Object> r : rows) {
      md.append("| ").append(format(r).replace("; ", " | ")).append(" |\n");
    }
    md.append('\n');
    for (String n : notes) {
      md.append("- ").append(n).append('\n');
    }
    Files.writeString(dir.resolve(name + ".md"), md.toString());
  }

  private static String format(List<Object> values) {
    List<String> out = new ArrayList<>();
    for (Object o : values) {
      if (o instanceof Double d) {
        out.add(String.format(Locale.ROOT, Math.abs(d) >= 100 ? "%.0f" : Math.abs(d) >= 10 ? "%.1f" : "%.2f", d));
      } else {
        out.add(String.valueOf(o));
      }
    }
    return String.join("; ", out);
  }
}
