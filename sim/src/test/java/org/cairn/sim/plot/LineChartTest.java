package org.cairn.sim.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineChartTest {
  @Test
  void aChartIsWrittenAsAPngUnderItsFinalNameOnly_withTheLineDrawnInItsColour(@TempDir Path dir) throws Exception {
    System.setProperty("java.awt.headless", "true");
    Path file = dir.resolve("sub/chart.png");
    new LineChart("t", "x", "y").add(new LineChart.Series("red", Color.RED, false, new double[] {0, 1, 2}, new double[] {0, 5, 2}))
        .write(file);
    BufferedImage img = ImageIO.read(file.toFile());
    assertThat(img.getWidth()).isEqualTo(1000);
    assertThat(img.getHeight()).isEqualTo(520);
    int red = 0;
    for (int x = 0; x < img.getWidth(); x++) {
      for (int y = 0; y < img.getHeight(); y++) {
        red += (img.getRGB(x, y) & 0xFFFFFF) == 0xFF0000 ? 1 : 0;
      }
    }
    assertThat(red).as("pixels of the red line").isGreaterThan(200);
    try (var files = Files.list(file.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("chart.png");
    }
  }

  @Test
  void ticksAreRoundStepsCoveringTheRange() {
    assertThat(LineChart.ticks(0, 30)).containsExactly(0, 5, 10, 15, 20, 25, 30);
    assertThat(LineChart.ticks(-1.2, 3.3)).containsExactly(-1, 0, 1, 2, 3);
  }

  @Test
  void aSeriesWithMoreXThanYIsRefused() {
    assertThatThrownBy(() -> new LineChart.Series("s", Color.RED, false, new double[] {1, 2}, new double[] {1}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2 x and 1 y");
  }
}
