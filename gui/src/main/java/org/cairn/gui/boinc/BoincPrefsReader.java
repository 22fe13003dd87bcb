package org.cairn.gui.boinc;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Reads a BOINC data directory's preferences as the client merges them: {@code global_prefs.xml} (the
 * project's, top level only: venues are not followed), then each setting {@code global_prefs_override.xml}
 * (BOINC Manager's, the owner's own) names over it, BOINC's defaults for the rest.
 *
 * <p>The files are another program's and may be anyone's: the parser takes no DOCTYPE at all (so no
 * external entity reads a file and no entity expansion grows without bound), a file above 1 MiB is not
 * read, and every value must be a plain number within its setting's range. Any of these, or malformed
 * XML, makes the whole directory's preferences unusable ({@link BoincPrefsException}): a half-read file is
 * never acted on.
 */
public final class BoincPrefsReader {
  public static final String GLOBAL = "global_prefs.xml";
  public static final String OVERRIDE = "global_prefs_override.xml";
  static final int MAX_BYTES = 1 << 20;
  private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d{1,20}(\\.\\d{0,20})?|\\.\\d{1,20})([eE][+-]?\\d{1,3})?");
  private static final List<String> TOP = List.of("net_start_hour", "net_end_hour", "disk_max_used_gb", "disk_max_used_pct",
      "disk_min_free_gb", "max_bytes_sec_up", "max_bytes_sec_down", "daily_xfer_limit_mb", "daily_xfer_period_days",
      "run_if_user_active", "idle_time_to_run", "suspend_cpu_usage");

  private BoincPrefsReader() {}

  /** A value as read, and the file it came from (named in errors). */
  private record Value(String text, String file) {}

  /** The directory's preferences, or empty when it has neither file. */
  public static Optional<BoincPrefs> read(Path dir) throws BoincPrefsException {
    Map<String, Value> top = new HashMap<>();
    Map<DayOfWeek, Map<String, Value>> days = new EnumMap<>(DayOfWeek.class);
    boolean any = false;
    for (String name : List.of(GLOBAL, OVERRIDE)) {
      Path file = dir.resolve(name);
      byte[] xml;
      try {
        if (Files.size(file) > MAX_BYTES) {
          throw new BoincPrefsException(file + " is larger than 1 MiB: not BOINC's preferences");
        }
        xml = Files.readAllBytes(file);
      } catch (NoSuchFileException e) {
        continue;
      } catch (IOException e) {
        throw new BoincPrefsException("cannot read " + file + ": " + e, e);
      }
      any = true;
      merge(root(xml, file.toString()), file.toString(), top, days);
    }
    return any ? Optional.of(build(top, days)) : Optional.empty();
  }

  /** Parses one file's text alone (over BOINC's defaults). */
  public static BoincPrefs parse(byte[] xml, String name) throws BoincPrefsException {
    Map<String, Value> top = new HashMap<>();
    Map<DayOfWeek, Map<String, Value>> days = new EnumMap<>(DayOfWeek.class);
    if (xml.length > MAX_BYTES) {
      throw new BoincPrefsException(name + " is larger than 1 MiB: not BOINC's preferences");
    }
    merge(root(xml, name), name, top, days);
    return build(top, days);
  }

  private static void merge(Element root, String file, Map<String, Value> top, Map<DayOfWeek, Map<String, Value>> days)
      throws BoincPrefsException {
    for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e) {
        if (TOP.contains(e.getTagName())) {
          top.put(e.getTagName(), new Value(e.getTextContent().trim(), file));
        } else if (e.getTagName().equals("day_prefs")) {
          mergeDay(e, file, days);
        }
      }
    }
  }

  /** One {@code day_prefs}: its net hours replace that weekday's (day_of_week 0 is Sunday, as in BOINC). */
  private static void mergeDay(Element day, String file, Map<DayOfWeek, Map<String, Value>> days) throws BoincPrefsException {
    Map<String, Value> hours = new HashMap<>();
    Integer dow = null;
    for (Node n = day.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e) {
        String text = e.getTextContent().trim();
        if (e.getTagName().equals("day_of_week")) {
          double d = number("day_of_week", new Value(text, file), 0, 6);
          if (d != Math.rint(d)) {
            throw new BoincPrefsException(file + ": day_of_week must be a whole number 0-6, was '" + text + "'");
          }
          dow = (int) d;
        } else if (e.getTagName().equals("net_start_hour") || e.getTagName().equals("net_end_hour")) {
          hours.put(e.getTagName(), new Value(text, file));
        }
      }
    }
    if (dow == null) {
      throw new BoincPrefsException(file + ": a day_prefs without its day_of_week");
    }
    if (!hours.isEmpty()) { // a day that sets only computing hours keeps the every-day network window
      hours.putIfAbsent("net_start_hour", new Value("0", file)); // as BOINC: the end it leaves out is 0
      hours.putIfAbsent("net_end_hour", new Value("0", file));
      days.put(dow == 0 ? DayOfWeek.SUNDAY : DayOfWeek.of(dow), hours);
    }
  }

  private static BoincPrefs build(Map<String, Value> top, Map<DayOfWeek, Map<String, Value>> days) throws BoincPrefsException {
    BoincPrefs d = BoincPrefs.defaults();
    Map<DayOfWeek, BoincPrefs.Hours> dayHours = new EnumMap<>(DayOfWeek.class);
    for (Map.Entry<DayOfWeek, Map<String, Value>> e : days.entrySet()) {
      dayHours.put(e.getKey(), new BoincPrefs.Hours(number("net_start_hour", e.getValue().get("net_start_hour"), 0, 24),
          number("net_end_hour", e.getValue().get("net_end_hour"), 0, 24)));
    }
    return new BoincPrefs(
        new BoincPrefs.Hours(or(top, "net_start_hour", d.netHours().start(), 24), or(top, "net_end_hour", d.netHours().end(), 24)),
        dayHours,
        or(top, "disk_max_used_gb", d.diskMaxUsedGb(), 1e9),
        or(top, "disk_max_used_pct", d.diskMaxUsedPct(), 100),
        or(top, "disk_min_free_gb", d.diskMinFreeGb(), 1e9),
        or(top, "max_bytes_sec_up", d.maxBytesSecUp(), 1e13),
        or(top, "max_bytes_sec_down", d.maxBytesSecDown(), 1e13),
        or(top, "daily_xfer_limit_mb", d.dailyXferLimitMb(), 1e12),
        (int) or(top, "daily_xfer_period_days", d.dailyXferPeriodDays(), 3650),
        top.containsKey("run_if_user_active") ? bool("run_if_user_active", top.get("run_if_user_active")) : d.runIfUserActive(),
        or(top, "idle_time_to_run", d.idleTimeToRun(), 1e6),
        or(top, "suspend_cpu_usage", d.suspendCpuUsage(), 100));
  }

  private static double or(Map<String, Value> top, String key, double fallback, double max) throws BoincPrefsException {
    return top.containsKey(key) ? number(key, top.get(key), 0, max) : fallback;
  }

  private static double number(String key, Value v, double min, double max) throws BoincPrefsException {
    if (!NUMBER.matcher(v.text()).matches()) {
      throw new BoincPrefsException(v.file() + ": " + key + " must be a number, was '" + abbreviate(v.text()) + "'");
    }
    double d = Double.parseDouble(v.text());
    if (!(d >= min && d <= max)) {
      throw new BoincPrefsException(v.file() + ": " + key + " must be between " + fmt(min) + " and " + fmt(max) + ", was " + v.text());
    }
    return d;
  }

  /** BOINC's booleans: {@code <x/>} or {@code <x>1</x>} is true, {@code <x>0</x>} false. */
  private static boolean bool(String key, Value v) throws BoincPrefsException {
    return switch (v.text()) {
      case "", "1" -> true;
      case "0" -> false;
      default -> throw new BoincPrefsException(v.file() + ": " + key + " must be 0 or 1, was '" + abbreviate(v.text()) + "'");
    };
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  private static String abbreviate(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "…" : s;
  }

  /** The document's root, which must be {@code global_preferences}; no DOCTYPE, entity or external reference is allowed. */
  private static Element root(byte[] xml, String name) throws BoincPrefsException {
    Document doc;
    try (InputStream in = new ByteArrayInputStream(xml)) {
      DocumentBuilder b = factory().newDocumentBuilder();
      b.setErrorHandler(THROW);
      b.setEntityResolver((publicId, systemId) -> {
        throw new SAXException("external entity " + systemId + " refused");
      });
      doc = b.parse(new InputSource(in));
    } catch (SAXException e) {
      if (String.valueOf(e.getMessage()).contains("DOCTYPE")) {
        throw new BoincPrefsException(name + " declares a DOCTYPE, which BOINC's preferences never do: refused, no DTD or entity read", e);
      }
      throw new BoincPrefsException(name + " is not well-formed BOINC preferences XML (" + e.getMessage() + ")", e);
    } catch (IOException | ParserConfigurationException e) {
      throw new BoincPrefsException("cannot parse " + name + ": " + e, e);
    }
    Element root = doc.getDocumentElement();
    if (!root.getTagName().equals("global_preferences")) {
      throw new BoincPrefsException(name + ": the root element is <" + abbreviate(root.getTagName()) + ">, not <global_preferences>");
    }
    return root;
  }

  static DocumentBuilderFactory factory() throws ParserConfigurationException {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    f.setFeature("http://xml.org/sax/features/external-general-entities", false);
    f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
    f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
    f.setXIncludeAware(false);
    f.setExpandEntityReferences(false);
    f.setNamespaceAware(false);
    return f;
  }

  /** Every problem is fatal and silent here: the caller says what went wrong, once. */
  private static final ErrorHandler THROW = new ErrorHandler() {
    @Override
    public void warning(SAXParseException e) {}

    @Override
    public void error(SAXParseException e) throws SAXException {
      throw e;
    }

    @Override
    public void fatalError(SAXParseException e) throws SAXException {
      throw e;
    }
  };
}
