package org.cairn.gui;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The donor's usage by day (BOINC Manager's statistics): bytes received and served, and the most held,
 * each day, kept for {@link #DAYS} days in {@code donor-usage.json} beside the settings file so the
 * history survives restarts. Fed with the peer's running counters, which start again at 0 when the
 * peer does.
 */
final class Usage {
  static final int DAYS = 30;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One day. */
  record Day(String date, long received, long served, long held) {}

  private final Path file;
  private final TreeMap<String, Day> days = new TreeMap<>();
  private long lastReceived = -1;
  private long lastServed = -1;

  Usage(Path file) {
    this.file = file;
    if (file != null && Files.exists(file)) {
      try {
        for (Day d : JSON.readValue(file.toFile(), new TypeReference<List<Day>>() {})) {
          days.put(d.date(), d);
        }
      } catch (IOException e) {
        // a damaged history is started again, not a reason to stop donating
      }
    }
  }

  /** Adds what the counters moved since the last sample to {@code today}'s row. */
  synchronized void sample(LocalDate today, long received, long served, long held) {
    long in = lastReceived < 0 ? 0 : received >= lastReceived ? received - lastReceived : received;
    long out = lastServed < 0 ? 0 : served >= lastServed ? served - lastServed : served;
    lastReceived = received;
    lastServed = served;
    Day d = days.getOrDefault(today.toString(), new Day(today.toString(), 0, 0, 0));
    days.put(d.date(), new Day(d.date(), d.received() + in, d.served() + out, Math.max(d.held(), held)));
    while (days.size() > DAYS) {
      days.pollFirstEntry();
    }
  }

  /** The days, newest first. */
  synchronized List<Day> days() {
    List<Day> out = new ArrayList<>(days.descendingMap().values());
    return out;
  }

  /** Writes the history (under a temporary name renamed into place). */
  synchronized void save() throws IOException {
    if (file != null) {
      AtomicWrite.replace(file, JSON.writeValueAsString(new ArrayList<>(days.values())));
    }
  }
}
