package org.cairn.cli.condor;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes ClassAds in the new form HTCondor reads the plug-in's output file in ({@code [ Name = value; ... ]}, one
 * attribute a line) and the old form of the {@code -classad} answer ({@code Name = value} lines). Strings are escaped
 * so that any text (quotes, backslashes, control characters, a newline in a file name) reads back as itself.
 */
public final class ClassAdWriter {
  private ClassAdWriter() {}

  /** {@code ad} in the new form, ending in a newline. */
  public static String write(ClassAd ad) {
    StringBuilder b = new StringBuilder();
    nested(b, ad, "");
    return b.append('\n').toString();
  }

  /** {@code ads} one after the other in the new form. */
  public static String writeAll(List<ClassAd> ads) {
    StringBuilder b = new StringBuilder();
    ads.forEach(ad -> b.append(write(ad)));
    return b.toString();
  }

  /** {@code ad} in the old form: {@code Name = value} a line. */
  public static String writeOld(ClassAd ad) {
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, ClassAd.Value> e : ad.asMap().entrySet()) {
      b.append(e.getKey()).append(" = ");
      value(b, e.getValue(), "");
      b.append('\n');
    }
    return b.toString();
  }

  /** {@code v} as written in an ad (a string quoted and escaped). */
  public static String value(ClassAd.Value v) {
    StringBuilder b = new StringBuilder();
    value(b, v, "");
    return b.toString();
  }

  private static void nested(StringBuilder b, ClassAd ad, String indent) {
    b.append("[\n");
    for (Map.Entry<String, ClassAd.Value> e : ad.asMap().entrySet()) {
      b.append(indent).append("  ").append(name(e.getKey())).append(" = ");
      value(b, e.getValue(), indent + "  ");
      b.append(";\n");
    }
    b.append(indent).append(']');
  }

  private static String name(String name) {
    return name.matches("[A-Za-z_][A-Za-z0-9_]*") ? name : "'" + escape(name, '\'') + "'";
  }

  private static void value(StringBuilder b, ClassAd.Value v, String indent) {
    if (v instanceof ClassAd.Str s) {
      b.append('"').append(escape(s.text(), '"')).append('"');
    } else if (v instanceof ClassAd.Int i) {
      b.append(i.value());
    } else if (v instanceof ClassAd.Real r) {
      b.append(Double.isFinite(r.value()) ? String.format(Locale.ROOT, "%.6f", r.value()) : "real(\"" + r.value() + "\")");
    } else if (v instanceof ClassAd.Bool t) {
      b.append(t.value());
    } else if (v instanceof ClassAd.Undefined) {
      b.append("undefined");
    } else if (v instanceof ClassAd.Expr e) {
      b.append(e.text());
    } else if (v instanceof ClassAd.Nested n) {
      nested(b, n.ad(), indent);
    } else if (v instanceof ClassAd.ListValue l) {
      b.append("{ ");
      for (int i = 0; i < l.items().size(); i++) {
        if (i > 0) {
          b.append(", ");
        }
        value(b, l.items().get(i), indent);
      }
      b.append(" }");
    }
  }

  /** {@code text} with the quote, backslashes and control characters escaped (octal for those without a letter). */
  static String escape(String text, char quote) {
    StringBuilder b = new StringBuilder(text.length() + 8);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        case '\r' -> b.append("\\r");
        default -> {
          if (c == quote) {
            b.append('\\').append(c);
          } else if (c < 0x20 || c == 0x7f) {
            b.append(String.format(Locale.ROOT, "\\%03o", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }
}
