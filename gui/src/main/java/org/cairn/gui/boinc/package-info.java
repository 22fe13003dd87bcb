/**
 * BOINC's preferences for a donor: {@link org.cairn.gui.boinc.BoincPrefsReader} reads a BOINC data directory's
 * {@code global_prefs.xml} and {@code global_prefs_override.xml} as the BOINC client merges them (hostile XML
 * refused), and {@link org.cairn.gui.boinc.BoincLimits} turns them into what the donor app sets: its quota, free
 * space left, network caps and hours, and busy rule.
 */
package org.cairn.gui.boinc;
