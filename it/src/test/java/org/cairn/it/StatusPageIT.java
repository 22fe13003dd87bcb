package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The tracker's status page in a real headless Chromium (Debian chromium + chromium-driver, installed by .ci/run). */
class StatusPageIT {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  @TempDir
  Path root;

  private MiniGrid grid;
  private WebDriver browser;

  @AfterEach
  void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (grid != null) {
      grid.close();
    }
  }

  private WebDriver browser() throws Exception {
    MiniGrid.requireTools("the status page test needs Debian's chromium and chromium-driver: apt-get install -y chromium "
        + "chromium-driver (.ci/run installs them)", CHROMIUM, CHROMEDRIVER);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--window-size=1400,1000", "--user-data-dir=" + Files.createDirectories(root.resolve("chromium-profile")));
    // the tracker serves HTTPS under its own CA (the default), which tokens pin and a browser cannot: the operator accepts
    // the certificate once, as this does
    options.setAcceptInsecureCerts(true);
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort().build();
    browser = new ChromeDriver(service, options);
    return browser;
  }

  private List<MiniGrid.Node> startGrid(String statusPage, int peers) throws Exception {
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker("--status-page", statusPage);
    List<MiniGrid.Node> nodes = new ArrayList<>();
    for (int i = 0; i < peers; i++) {
      nodes.add(grid.startPeer("s" + i, "--id", "s" + i));
    }
    MiniGrid.await(peers + " peers", Duration.ofSeconds(30), () -> grid.peers().size() == peers);
    return nodes;
  }

  /** Waits that also retry when the page re-rendered an element between finding and reading it. */
  private static WebDriverWait wait(WebDriver b, int seconds) {
    WebDriverWait w = new WebDriverWait(b, Duration.ofSeconds(seconds));
    w.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
    return w;
  }

  private static String stateShown(WebDriver b, String peer) {
    List<WebElement> rows = b.findElements(By.cssSelector("[data-peer-id='" + peer + "']"));
    return rows.isEmpty() ? null : rows.get(0).getDomAttribute("data-state");
  }

  @Test
  void publicPage_listsPeersWithTheirStates_andFollowsADeath() throws Exception {
    List<MiniGrid.Node> nodes = startGrid("public-apps", 6);
    Path image = Files.write(root.resolve("ckpt.img"), MemoryImages.image(3, 4 * 1024 * 1024));
    MiniGrid.Cli store = grid.cli("store", image.toString(), "--app", "heat", "--node", "rank0", "--redundancy", "code:4+2");
    assertThat(store.exit()).as(store.stderr()).isZero();

    WebDriver b = browser();
    b.get(grid.trackerUrl() + "/");
    WebDriverWait wait = wait(b, 20);
    wait.until(d -> d.findElements(By.cssSelector("[data-peer-id]")).size() == 6);
    for (int i = 0; i < 6; i++) {
      assertThat(stateShown(b, "s" + i)).isEqualTo("RUNNING");
    }
    assertThat(b.findElement(By.id("health")).getText()).startsWith("Healthy");
    assertThat(b.findElement(By.id("summary")).getText()).as("the repair card's estimate").contains("nothing to rebuild");
    // traffic per donor: every peer took pieces of the 4+2 store, and the table shows what it stored
    MiniGrid.await("every peer's traffic reported", Duration.ofSeconds(10), () -> {
      for (com.fasterxml.jackson.databind.JsonNode p : grid.peers()) {
        if (p.path("traffic").path("in").asLong() <= 0) {
          return false;
        }
      }
      return true;
    });
    wait.until(d -> d.findElement(By.cssSelector("[data-peer-id='s0'] td.traffic")).getText()
        .matches("in \\S+ \\S+/s, out \\S+ \\S+/s \\((?!0 B )[0-9.]+ \\S+ / [0-9.]+ \\S+\\)"));
    wait.until(d -> !d.findElements(By.cssSelector("[data-version='heat.rank0.1']")).isEmpty());
    wait.until(d -> d.findElement(By.cssSelector("[data-version='heat.rank0.1']")).getText().contains("fully restorable"));
    assertThat(b.getCurrentUrl()).doesNotContain(grid.token());

    // a peer dies: its row turns DOWN without a reload, and the health line says the data is degraded
    nodes.get(2).kill();
    wait(b, 20).until(d -> "DOWN".equals(stateShown(d, "s2")));
    wait(b, 20).until(d -> d.findElement(By.id("health")).getText().startsWith("Degraded"));
    wait(b, 10).until(d -> d.findElement(By.cssSelector("[data-peer-id='s2'] .state")).getText().equals("DOWN"));
    wait(b, 10).until(d -> d.findElement(By.id("events")).getText().matches("(?s).*down s2.*"));

    // sorting by state puts the DOWN peer first
    b.findElement(By.cssSelector("th[data-key='state']")).click();
    wait(b, 10).until(d -> "s2".equals(d.findElements(By.cssSelector("[data-peer-id]")).get(0).getDomAttribute("data-peer-id")));
    // a peer's detail: 14-day history and CRLS
    b.findElement(By.cssSelector("[data-peer-id='s0']")).click();
    wait(b, 10).until(d -> d.findElement(By.id("peer-detail")).getText().contains("Peer s0 — last"));

    Path shot = Path.of(System.getProperty("cairn.root", "."), "it", "target", "status-page.png");
    Files.createDirectories(shot.getParent());
    Files.write(shot, ((TakesScreenshot) b).getScreenshotAs(OutputType.BYTES));
    assertThat(Files.size(shot)).isPositive();
  }

  @Test
  void hundredsOfPeersAndManyNodes_arePagedAndFiltered() throws Exception {
    startGrid("public-apps", 1);
    org.cairn.core.api.TrackerClient tracker = new org.cairn.core.api.TrackerClient(java.net.URI.create(grid.trackerUrl()),
        org.cairn.core.security.GridToken.readFile(grid.tokenFile()), Duration.ofSeconds(10));
    for (int i = 0; i < 120; i++) {
      tracker.register(new org.cairn.core.api.member.RegisterRequest(String.format("load-%03d", i), "127.0.0.1:" + (20000 + i), "RUNNING",
          1L << 30, 0, 1L << 30, 0, false, "test"));
    }
    // 25 nodes of one app, a version each (chunk maps only: their pieces are nowhere, so they show as not restorable)
    List<String> holders = List.of("load-000", "load-001", "load-002");
    for (int n = 0; n < 25; n++) {
      org.cairn.core.hash.ChunkId id = org.cairn.core.hash.ChunkId.of(("chunk " + n).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      org.cairn.core.manifest.Manifest m = org.cairn.core.manifest.Manifest.of("many", String.format("n%02d", n), 0, 4096, "code:2+1",
          "none", "file", System.currentTimeMillis(), "test", List.of(new org.cairn.core.manifest.ChunkRef(id, 4096)));
      tracker.commit(new org.cairn.core.api.catalog.CommitRequest(m, List.of(new org.cairn.core.api.catalog.CommitRequest.NewChunk(id.hex(), holders,
          List.of("00000001", "00000002", "00000003"), 3000, null)), null));
    }
    WebDriver b = browser();
    b.get(grid.trackerUrl() + "/");
    WebDriverWait wait = wait(b, 20);
    wait.until(d -> d.findElement(By.id("node-count")).getText().equals("nodes 1-20 of 25"));
    assertThat(b.findElements(By.cssSelector("[data-node]"))).hasSize(20);
    b.findElement(By.id("node-next")).click();
    wait.until(d -> d.findElement(By.id("node-count")).getText().equals("nodes 21-25 of 25"));
    wait.until(d -> d.findElements(By.cssSelector("[data-node]")).size() == 5);
    b.findElement(By.id("node-filter")).sendKeys("n07");
    wait.until(d -> d.findElement(By.id("node-count")).getText().equals("nodes 1-1 of 1 matching (25 in all)"));
    wait.until(d -> d.findElements(By.cssSelector("[data-version='many.n07.1']")).size() == 1);

    wait.until(d -> d.findElement(By.id("peer-count")).getText().equals("peers 1-50 of 121"));
    assertThat(b.findElements(By.cssSelector("[data-peer-id]"))).hasSize(50);
    assertThat(b.findElement(By.id("peer-prev")).isEnabled()).isFalse();
    b.findElement(By.id("peer-next")).click();
    wait.until(d -> d.findElement(By.id("peer-count")).getText().equals("peers 51-100 of 121"));
    assertThat(b.findElements(By.cssSelector("[data-peer-id]")).get(0).getDomAttribute("data-peer-id")).isEqualTo("load-050");
    b.findElement(By.id("peer-filter")).sendKeys("load-11");
    wait.until(d -> d.findElement(By.id("peer-count")).getText().equals("peers 1-10 of 10 matching (121 in all)"));
    assertThat(b.findElements(By.cssSelector("[data-peer-id]"))).extracting(e -> e.getDomAttribute("data-peer-id"))
        .allMatch(id -> id.startsWith("load-11")).hasSize(10);
    // the capacity chart (uPlot, served from the jar): a sample per one-second history slot
    wait.until(d -> !d.findElements(By.cssSelector("#capacity-chart .uplot canvas")).isEmpty());
    assertThat(b.findElement(By.id("capacity-chart")).getText()).contains("used (GB)").contains("donated by live peers (GB)");
    JsonNode capacity = grid.get("/api/v1/capacity?window=1h").json();
    assertThat(capacity.get("samples").size()).isPositive();
    assertThat(capacity.get("samples").get(capacity.get("samples").size() - 1).get("livePeers").asInt()).isPositive();

    b.findElement(By.id("peer-filter")).sendKeys("x");
    wait.until(d -> d.findElement(By.id("peer-count")).getText().equals("no peer matches \"load-11x\""));
    assertThat(b.findElements(By.cssSelector("[data-peer-id]"))).isEmpty();
  }

  @Test
  void publicSummary_showsPeersAndHealth_butNoAppName() throws Exception {
    startGrid("public", 2);
    Path image = Files.write(root.resolve("ckpt.img"), MemoryImages.image(5, 1024 * 1024));
    MiniGrid.Cli store = grid.cli("store", image.toString(), "--app", "secretproject", "--node", "rank0", "--redundancy", "replicate:2");
    assertThat(store.exit()).as(store.stderr()).isZero();
    WebDriver b = browser();
    b.get(grid.trackerUrl() + "/");
    WebDriverWait wait = wait(b, 20);
    wait.until(d -> d.findElements(By.cssSelector("[data-peer-id]")).size() == 2);
    wait.until(d -> d.findElement(By.id("health")).getText().startsWith("Healthy"));
    assertThat(b.getPageSource()).doesNotContain("secretproject");
    assertThat(grid.get("/api/v1/versions?app=secretproject&node=rank0", null).status()).isEqualTo(403);
    assertThat(grid.get("/api/v1/apps", null).text()).doesNotContain("secretproject");
    assertThat(grid.get("/api/v1/durability", null).text()).doesNotContain("secretproject");
    assertThat(grid.get("/api/v1/events", null).text()).doesNotContain("secretproject");
    // with a token the same page shows the app
    assertThat(grid.get("/api/v1/apps").text()).contains("secretproject");
  }

  @Test
  void tokenPage_asksForTheToken_andShowsNothingWithoutIt() throws Exception {
    startGrid("token", 2);
    WebDriver b = browser();
    b.get(grid.trackerUrl() + "/");
    WebDriverWait wait = wait(b, 20);
    wait.until(d -> d.findElement(By.id("token-form")).isDisplayed());
    assertThat(b.findElements(By.cssSelector("[data-peer-id]"))).isEmpty();
    b.findElement(By.id("token-input")).sendKeys("not-the-token");
    b.findElement(By.cssSelector("#token-entry button")).click();
    wait.until(d -> d.findElement(By.id("token-error")).getText().contains("not accepted"));
    b.findElement(By.id("token-input")).clear();
    b.findElement(By.id("token-input")).sendKeys(grid.token());
    b.findElement(By.cssSelector("#token-entry button")).click();
    wait.until(d -> d.findElements(By.cssSelector("[data-peer-id]")).size() == 2);
    assertThat(b.getCurrentUrl()).doesNotContain(grid.token());
  }
}
