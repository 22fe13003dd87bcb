package org.cairn.gui;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import javax.swing.JOptionPane;
import javax.swing.SwingUtilities;
import org.cairn.gui.boinc.BoincLimits;
import org.cairn.gui.boinc.BoincPrefs;
import org.cairn.gui.boinc.BoincPrefsException;
import org.cairn.gui.boinc.BoincPrefsReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first run's question: where BOINC runs on this computer, its owner has already said how much disk and
 * network it gives and when; the app shows what that would set and, if the owner agrees, fills the settings
 * dialog with it and follows the files from then on.
 */
final class BoincOffer {
  private static final Logger LOG = LoggerFactory.getLogger(BoincOffer.class);

  private BoincOffer() {}

  /** What adopting would give: the settings, and each change in words. */
  record Offer(DonorSettings adopted, List<String> changes) {}

  /** {@code initial}, or with BOINC's limits and {@code donor-boinc-dir} when the owner takes them. */
  static DonorSettings ask(DonorSettings initial, Path boincDir) throws Exception {
    Optional<Offer> offer = offer(initial, boincDir);
    if (offer.isEmpty()) {
      return initial;
    }
    int[] answer = new int[1];
    SwingUtilities.invokeAndWait(() -> answer[0] = JOptionPane.showConfirmDialog(null,
        "BOINC runs on this computer, and its preferences (" + boincDir + ") say how much it may use.\n"
            + "Give Cairn the same, and follow them when you change them in BOINC?\n\n  " + String.join("\n  ", offer.get().changes()),
        "Cairn donor: use BOINC's preferences?", JOptionPane.YES_NO_OPTION));
    return answer[0] == JOptionPane.YES_OPTION ? offer.get().adopted() : initial;
  }

  /** What the preferences in {@code boincDir} would set, or empty when there are none or they cannot be used (logged). */
  static Optional<Offer> offer(DonorSettings initial, Path boincDir) throws java.io.IOException {
    Optional<BoincPrefs> prefs;
    try {
      prefs = BoincPrefsReader.read(boincDir);
    } catch (BoincPrefsException e) {
      LOG.warn("BOINC preferences not offered: {}", e.getMessage());
      return Optional.empty();
    }
    if (prefs.isEmpty()) {
      return Optional.empty();
    }
    DonorSettings adopted = BoincAdoption.apply(initial, BoincLimits.of(prefs.get(), BoincAdoption.disk(Path.of(initial.get("data")), 0)))
        .with(BoincAdoption.DIR, boincDir.toString());
    return Optional.of(new Offer(adopted, BoincAdoption.changes(initial, adopted)));
  }
}
