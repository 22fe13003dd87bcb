package org.cairn.sim.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A line chart drawn with Java2D into a PNG (headless; the JDK only): series of (x, y) points over shared axes, a
 * legend, ticks at round values. Written to a temporary name and renamed, so no partial file has the final name.
 */
public final class LineChart {
  /** One line: its name in the legend, colour, whether dashed, and its points. */
  public record Series(String name, Color color, boolean dashed, double[] x, double[] y) {
    public Series {
      if (x.length != y.length) {
        throw new IllegalArgumentException("series '" + name + "' has " + x.length + " x and " + y.length + " y values");
      }
    }
  }

  private static final int WIDTH = 1000;
  private static final int HEIGHT = 520;
  private static final int LEFT = 80;
  private static final int RIGHT = 230;
  private static final int TOP = 50;
  private static final int BOTTOM = 60;

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final List<Series> series = new ArrayList<>();
  private Double yMin;
  private Double yMax;

  public LineChart(String title, String xLabel, String yLabel) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
  }

  public LineChart add(Series s) {
    series.add(s);
    return this;
  }

  /** Fixes the y axis' range instead of fitting it to the data. */
  public LineChart yRange(double min, double max) {
    if (!(max > min)) {
      throw new IllegalArgumentException("y range must have max > min, was " + min + ".." + max);
    }
    yMin = min;
    yMax = max;
    return this;
  }

  public BufferedImage render() {
    double[] xr = range(true);
    double[] yr = yMin != null ? new double[] {yMin, yMax} : pad(range(false));
    BufferedImage img = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, WIDTH, HEIGHT);
      axes(g, xr, yr);
      for (Series s : series) {
        line(g, s, xr, yr);
      }
      legend(g);
    } finally {
      g.dispose();
    }
    return img;
  }

  /** Renders and writes the PNG to {@code file}. */
  public void write(Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, ".chart", ".png.tmp");
    try {
      if (!ImageIO.write(render(), "png", tmp.toFile())) {
        throw new IOException("no PNG writer in this JDK");
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private double[] range(boolean xs) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (Series s : series) {
      for (double v : xs ? s.x() : s.y()) {
        if (Double.isFinite(v)) {
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
    }
    if (lo > hi) {
      return new double[] {0, 1};
    }
    return lo == hi ? new double[] {lo - 1, hi + 1} : new double[] {lo, hi};
  }

  private static double[] pad(double[] r) {
    double span = r[1] - r[0];
    return new double[] {r[0] >= 0 && r[0] - 0.05 * span < 0 ? 0 : r[0] - 0.05 * span, r[1] + 0.08 * span};
  }

  private int px(double x, double[] xr) {
    return LEFT + (int) Math.round((x - xr[0]) / (xr[1] - xr[0]) * (WIDTH - LEFT - RIGHT));
  }

  private int py(double y, double[] yr) {
    return HEIGHT - BOTTOM - (int) Math.round((y - yr[0]) / (yr[1] - yr[0]) * (HEIGHT - TOP - BOTTOM));
  }

  private void axes(Graphics2D g, double[] xr, double[] yr) {
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 17));
    g.setColor(Color.BLACK);
    g.drawString(title, LEFT, 30);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    FontMetrics fm = g.getFontMetrics();
    for (double t : ticks(yr[0], yr[1])) {
      int y = py(t, yr);
      g.setColor(new Color(225, 225, 225));
      g.drawLine(LEFT, y, WIDTH - RIGHT, y);
      g.setColor(Color.DARK_GRAY);
      String s = format(t);
      g.drawString(s, LEFT - 8 - fm.stringWidth(s), y + 5);
    }
    for (double t : ticks(xr[0], xr[1])) {
      int x = px(t, xr);
      g.setColor(new Color(235, 235, 235));
      g.drawLine(x, TOP, x, HEIGHT - BOTTOM);
      g.setColor(Color.DARK_GRAY);
      String s = format(t);
      g.drawString(s, x - fm.stringWidth(s) / 2, HEIGHT - BOTTOM + 18);
    }
    g.setColor(Color.BLACK);
    g.drawRect(LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    g.drawString(xLabel, LEFT + (WIDTH - LEFT - RIGHT - fm.stringWidth(xLabel)) / 2, HEIGHT - 18);
    Graphics2D r = (Graphics2D) g.create();
    r.rotate(-Math.PI / 2);
    r.drawString(yLabel, -(TOP + (HEIGHT - TOP - BOTTOM + fm.stringWidth(yLabel)) / 2), 20);
    r.dispose();
  }

  private void line(Graphics2D g, Series s, double[] xr, double[] yr) {
    g.setColor(s.color());
    Stroke stroke = s.dashed() ? new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, new float[] {8f, 5f}, 0f)
        : new BasicStroke(2f);
    g.setStroke(stroke);
    int prevX = 0;
    int prevY = 0;
    boolean have = false;
    for (int i = 0; i < s.x().length; i++) {
      if (!Double.isFinite(s.y()[i])) {
        have = false;
        continue;
      }
      int x = px(s.x()[i], xr);
      int y = py(s.y()[i], yr);
      if (have) {
        g.drawLine(prevX, prevY, x, y);
      }
      prevX = x;
      prevY = y;
      have = true;
    }
    g.setStroke(new BasicStroke(1f));
  }

  private void legend(Graphics2D g) {
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    int y = TOP + 10;
    for (Series s : series) {
      g.setColor(s.color());
      g.setStroke(s.dashed() ? new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, new float[] {8f, 5f}, 0f)
          : new BasicStroke(2f));
      g.drawLine(WIDTH - RIGHT + 15, y, WIDTH - RIGHT + 45, y);
      g.setColor(Color.BLACK);
      g.drawString(s.name(), WIDTH - RIGHT + 52, y + 5);
      y += 22;
    }
    g.setStroke(new BasicStroke(1f));
  }

  /** Round tick values covering [lo, hi]: steps of 1, 2 or 5 times a power of ten, about six of them. */
  static double[] ticks(double lo, double hi) {
    double raw = (hi - lo) / 6;
    double mag = Math.pow(10, Math.floor(Math.log10(raw)));
    double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
    List<Double> out = new ArrayList<>();
    for (double t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) {
      out.add(Math.abs(t) < step * 1e-9 ? 0 : t);
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static String format(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e9 ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.2f", v);
  }
}
