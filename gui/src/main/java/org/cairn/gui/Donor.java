package org.cairn.gui;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.cairn.core.availability.HostState;
import org.cairn.core.config.ByteSize;
import org.cairn.peer.PeerConfig;
import org.cairn.peer.PeerDaemon;
import org.cairn.peer.PeerRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The donor's controller: runs the peer in-process, applies the donor rules every few seconds, and
 * carries out what the tray menu, the window or the test hook asks (pause, resume, quota). The peer
 * runs from a {@link PeerConfig} the app keeps and changes: a quota change is saved to the settings
 * file and given to the running peer (no restart); new settings that need one start the peer again
 * from the config they give.
 */
public final class Donor implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(Donor.class);

  private final Path settingsFile;
  private final DonorRules rules;
  private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "donor-rules");
    t.setDaemon(true);
    return t;
  });
  private final DonorRules.Settings flagRules;
  private final Activity activity = new Activity();
  private final Usage usage;
  private int samples;
  private volatile PeerRuntime peer;
  /** What the peer runs with: started from it, and changed with the quota and the settings. */
  private PeerConfig config;
  private volatile String ruleReason;
  private volatile boolean paused;
  private String shownState;
  /** The BOINC preferences the donor follows (the settings' {@code donor-boinc-dir}), or null. */
  private BoincFollower boinc;
  private volatile int boincSeen;
  /** Tells this user's agent when the owner comes back; {@link #ownerWas}: whether the last rules run saw them (null: none ran). */
  private final CheckpointNotifier notices = CheckpointNotifier.ofThisUser(activity);
  private Boolean ownerWas;

  /**
   * Starts the peer with {@code config}.
   *
   * @param settingsFile where the settings live (the peer's YAML and the donor rules), or null when
   *     the app runs on peer flags (nothing is saved then, and the settings dialog is not offered)
   * @param rules the command line's rules, in force where the settings file does not set one
   */
  public Donor(PeerConfig config, Path settingsFile, DonorRules.Settings rules) throws IOException, InterruptedException {
    this.config = config;
    this.settingsFile = settingsFile;
    this.flagRules = rules;
    this.usage = new Usage(settingsFile == null ? null : settingsFile.resolveSibling("donor-usage.json"));
    this.rules = new DonorRules(DonorSettings.load(settingsFile).rules(rules), DonorRules::systemCpuLoad,
        () -> peer == null ? 0 : peer.daemon().servedBytes());
    this.peer = PeerRuntime.start(config);
    this.paused = peer.daemon().paused();
    activity.add("started: peer " + peer.daemon().id() + " on " + peer.daemon().address() + ", tracker " + peer.config().tracker());
    ticker.scheduleWithFixedDelay(this::applyRules, 0, 2, TimeUnit.SECONDS);
    if (settingsFile != null) {
      ticker.scheduleWithFixedDelay(this::followBoinc, 0, 2, TimeUnit.SECONDS);
    }
  }

  /** Follows the BOINC directory the settings name: when its preferences change, adopts them. */
  private void followBoinc() {
    try {
      String dir = DonorSettings.load(settingsFile).get(BoincAdoption.DIR);
      if (dir.isEmpty()) {
        boinc = null;
        return;
      }
      if (boinc == null || !boinc.dir().equals(Path.of(dir))) {
        boinc = new BoincFollower(Path.of(dir));
        LOG.info("following BOINC's preferences in {}", dir);
      }
      BoincFollower.Change change = boinc.changed();
      if (change != null && change.prefs() != null) {
        adoptBoinc(change.prefs(), dir);
      } else if (change != null && change.problem() != null) {
        activity.add("BOINC preferences not used (settings unchanged): " + change.problem());
      }
      if (change != null) {
        boincSeen++;
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("following BOINC's preferences failed: {}", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Puts BOINC's limits in the settings and applies them, saying what changed; nothing when nothing did. */
  private synchronized void adoptBoinc(org.cairn.gui.boinc.BoincPrefs prefs, String dir) throws IOException, InterruptedException {
    DonorSettings before = DonorSettings.load(settingsFile);
    DonorSettings after = BoincAdoption.apply(before, org.cairn.gui.boinc.BoincLimits.of(prefs,
        BoincAdoption.disk(config.dataDir(), peer.daemon().usedBytes())));
    java.util.List<String> changes = BoincAdoption.changes(before, after);
    if (!changes.isEmpty()) {
      LOG.info("BOINC preferences in {} changed: {}", dir, String.join("; ", changes));
      String problem = reconfigure(after, before.token());
      activity.add(problem == null ? "BOINC preferences adopted: " + String.join("; ", changes)
          : "BOINC preferences not adopted: " + problem);
      if (problem != null) {
        LOG.warn("BOINC preferences in {} not adopted: {}", dir, problem);
      }
    }
  }

  /** How many changes of the BOINC files the donor has acted on (adopted, unchanged or refused): tests await it. */
  int boincSeen() {
    return boincSeen;
  }

  /**
   * Counts the owner as using the computer from any pointer movement until {@code idle} passes without one (BUSY,
   * and this user's jobs told to checkpoint); null: input is not watched.
   */
  public void watchOwnerInput(java.time.Duration idle) {
    rules.watchOwnerInput(idle == null ? null : new OwnerInput(OwnerInput.screen(), idle));
  }

  private void applyRules() {
    try {
      long now = System.nanoTime();
      String why = rules.evaluate(ZonedDateTime.now(), now);
      boolean owner = rules.ownerPresent();
      if (owner && Boolean.FALSE.equals(ownerWas)) {
        notices.ownerBack(why == null ? "the owner is back" : why, now);
      }
      ownerWas = owner;
      if (!java.util.Objects.equals(why, ruleReason)) {
        activity.add(why == null ? "rules: taking new pieces again" : "rules: not taking new pieces (" + why + ")");
      }
      ruleReason = why;
      PeerRuntime p = peer;
      if (p != null) {
        p.daemon().setBusyReason(why);
        Traffic t = traffic();
        usage.sample(java.time.LocalDate.now(), t.received(), t.served(), t.used());
        if (++samples % 30 == 0) {
          usage.save();
        }
        String state = displayState();
        if (!state.equals(shownState)) {
          activity.add((shownState == null ? "state " + state : "state " + shownState + " -> " + state) + ": " + explain(state));
          shownState = state;
        }
      }
    } catch (RuntimeException | IOException e) {
      LOG.error("donor rules failed", e);
    }
  }

  public PeerDaemon daemon() {
    return peer.daemon();
  }

  public PeerConfig config() {
    return peer.config();
  }

  public synchronized void pause() {
    paused = true;
    peer.daemon().setPaused(true);
    activity.add("paused by you");
  }

  public synchronized void resume() {
    paused = false;
    peer.daemon().setPaused(false);
    activity.add("resumed by you");
  }

  public boolean paused() {
    return paused;
  }

  public DonorRules.Settings rules() {
    return rules.settings();
  }

  /** The rule that makes the peer BUSY now, or null. */
  public String ruleReason() {
    return ruleReason;
  }

  /**
   * Saves the new quota in the settings file and gives it to the running peer, which registers again
   * with it (same id and address: no restart, nothing to repair). The same quota again changes nothing.
   */
  public synchronized void setQuota(long bytes) throws IOException {
    if (bytes <= 0) {
      throw new IllegalArgumentException("quota must be positive");
    }
    if (bytes == quota()) {
      return;
    }
    DonorSettings.setKey(settingsFile, "quota", Long.toString(bytes));
    peer.daemon().setQuota(bytes);
    config = config.withQuota(bytes); // for the next start
    LOG.info("quota set to {} bytes", bytes);
    activity.add("quota set to " + ByteSize.format(bytes));
  }

  /** The settings file's settings (none when started with peer flags). */
  public DonorSettings settings() throws IOException {
    return DonorSettings.load(settingsFile);
  }

  /**
   * Saves settings from the dialog and applies them: the rules and the quota at once, a new tracker,
   * token, data directory or address by starting the peer again with them. Returns null, or why not
   * (the old settings are then back in force).
   */
  public synchronized String reconfigure(DonorSettings after, String token) throws IOException, InterruptedException {
    if (settingsFile == null) {
      return "started with peer flags: start cairn-donor without them to use a settings file";
    }
    DonorSettings before = DonorSettings.load(settingsFile);
    String tokenBefore = before.token();
    after.save(settingsFile, token);
    rules.update(after.rules(flagRules));
    if (!after.needsRestart(before, tokenBefore, token)) {
      long q = ByteSize.parse(after.get("quota"));
      if (q != quota()) {
        peer.daemon().setQuota(q);
      }
      config = config.withQuota(q);
      activity.add("settings saved (quota " + ByteSize.format(q) + ", rules applied)");
      return null;
    }
    PeerConfig running = config;
    PeerConfig next;
    try {
      next = after.peerConfig(settingsFile);
    } catch (IOException | RuntimeException e) { // not a peer's settings: the running peer goes on as it is
      return restore(before, tokenBefore, e);
    }
    try {
      restartPeer(next);
      activity.add("settings saved; the peer started again with tracker " + after.get("tracker") + ", data " + after.get("data"));
      return null;
    } catch (IOException | RuntimeException e) {
      String problem = restore(before, tokenBefore, e);
      restartPeer(running);
      return problem;
    }
  }

  /** Puts the settings and rules from before back after {@code e}; returns what to tell the user. */
  private String restore(DonorSettings before, String tokenBefore, Exception e) throws IOException {
    LOG.warn("the peer did not start with the new settings ({}); going back to the old ones", e.getMessage());
    before.save(settingsFile, tokenBefore);
    rules.update(before.rules(flagRules));
    return "the peer did not start with them: " + (e.getMessage() == null ? e.toString() : e.getMessage());
  }

  /** Stops the peer and starts it with {@code next}, paused if the donor is; {@code next} is then what it runs with. */
  private void restartPeer(PeerConfig next) throws IOException, InterruptedException {
    peer.close(); // closing twice (a failed start, then the old settings) is harmless
    peer = PeerRuntime.start(next);
    config = next;
    if (paused) {
      peer.daemon().setPaused(true);
    }
  }

  /** What the peer holds and has moved since the app started. */
  public record Traffic(long used, long fragments, long received, long served) {}

  public Traffic traffic() {
    PeerRuntime p = peer;
    return new Traffic(p.daemon().usedBytes(), p.store().fragmentCount(), p.store().bytesWritten(), p.daemon().servedBytes());
  }

  Activity activity() {
    return activity;
  }

  Usage usage() {
    return usage;
  }

  /** The space donated now. */
  public long quota() {
    return peer.daemon().quotaBytes();
  }

  /** One line for the menu and tooltips: state, used / quota, fragments, and any active rule. */
  public String statusLine() {
    PeerDaemon d = peer.daemon();
    String state = !d.registered() ? "CONNECTING" : paused ? "PAUSED" : d.state().name();
    String line = String.format(Locale.ROOT, "%s — %s of %s used, %d fragments", state, ByteSize.format(d.usedBytes()),
        ByteSize.format(quota()), peer.store().fragmentCount());
    String why = ruleReason;
    return why == null ? line : line + " — busy: " + why;
  }

  /** The state shown by the icon's colour. */
  public String displayState() {
    PeerDaemon d = peer.daemon();
    if (!d.registered()) {
      return "DOWN";
    }
    if (paused) {
      return "PAUSED";
    }
    HostState s = d.state();
    return s.name();
  }

  /** What each state means, in plain words (tooltips). */
  public static String explain(String state) {
    return switch (state) {
      case "RUNNING" -> "Donating: this computer stores checkpoint pieces for the grid.";
      case "FULL" -> "Full: the space you donated is used up; stored pieces are still served.";
      case "LOADED" -> "Your disk is busy, so the grid sends new pieces elsewhere when it can.";
      case "BUSY" -> "Not taking new pieces right now (your computer is busy, or outside donation hours); stored pieces are still served.";
      case "PAUSED" -> "Paused by you: no new pieces; stored pieces are still served.";
      default -> "Not connected to the grid's tracker; retrying.";
    };
  }

  public Path settingsFile() {
    return settingsFile;
  }

  @Override
  public void close() {
    ticker.shutdownNow();
    notices.close();
    try {
      usage.save();
    } catch (IOException e) {
      LOG.warn("could not save the usage history: {}", e.getMessage());
    }
    PeerRuntime p = peer;
    if (p != null) {
      p.close();
    }
  }
}
