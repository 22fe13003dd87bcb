package org.cairn.cli.condor;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads ClassAds in the two forms HTCondor writes: the "new" form (a sequence of {@code [ Name = value; ... ]}, the
 * plug-in's input file) and the "old" or "long" form (one {@code Name = value} a line, the job ad). Literals (strings
 * with their escapes, integers, reals, booleans, {@code undefined}), lists and nested ads are read as values; any other
 * expression is kept whole as text, so a well-formed ad in the full language is never refused for what the plug-in does
 * not evaluate. Comments ({@code //}, {@code /* *}{@code /}) are skipped. Input that is not a ClassAd is a {@link Malformed}
 * naming the line and column; nesting deeper than {@link #MAX_DEPTH} and strings longer than the input are refused, not
 * recursed into.
 */
public final class ClassAdParser {
  /** Nested lists and ads deeper than this are refused. */
  public static final int MAX_DEPTH = 64;

  /** Text that is not a ClassAd, with where. */
  public static final class Malformed extends IllegalArgumentException {
    Malformed(String message) {
      super(message);
    }
  }

  private final String s;
  private int p;
  private int depth;

  private ClassAdParser(String text) {
    this.s = text;
  }

  /** The ads of a new-form sequence ({@code [ ... ] [ ... ]}); an empty text is none. */
  public static List<ClassAd> parseSequence(String text) {
    ClassAdParser r = new ClassAdParser(text);
    List<ClassAd> ads = new ArrayList<>();
    while (true) {
      r.skipSpace();
      if (r.p >= r.s.length()) {
        return ads;
      }
      r.expect('[');
      ads.add(r.adBody());
    }
  }

  /** One ad in the old form: {@code Name = value} a line; blank lines and lines starting {@code #} or {@code //} skipped. */
  public static ClassAd parseOld(String text) {
    ClassAd ad = new ClassAd();
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith("//")) {
        continue;
      }
      int eq = line.indexOf('=');
      String name = eq < 0 ? "" : line.substring(0, eq).strip();
      if (!name.matches("[A-Za-z_][A-Za-z0-9_.]*")) {
        throw new Malformed("line " + (i + 1) + ": expected 'Name = value', found '" + abbreviate(line) + "'");
      }
      ClassAdParser r = new ClassAdParser(line.substring(eq + 1));
      ad.put(name, r.valueUpTo(""));
      r.skipSpace();
      if (r.p < r.s.length()) {
        throw new Malformed("line " + (i + 1) + ": unexpected '" + abbreviate(r.s.substring(r.p)) + "' after the value of " + name);
      }
    }
    return ad;
  }

  /** The attributes up to the closing {@code ]} (the opening one read). */
  private ClassAd adBody() {
    enter();
    ClassAd ad = new ClassAd();
    while (true) {
      skipSpace();
      if (peek() == ']') {
        p++;
        depth--;
        return ad;
      }
      if (peek() == ';') {
        p++; // an empty statement, as after the last attribute
        continue;
      }
      String name = name();
      skipSpace();
      expect('=');
      ad.put(name, valueUpTo(";]"));
      skipSpace();
      if (peek() == ';') {
        p++;
      } else if (peek() != ']') {
        throw malformed("expected ';' or ']' after the value of " + name);
      }
    }
  }

  /** An attribute's name: an identifier, or a quoted name ({@code 'a name'}). */
  private String name() {
    int start = p;
    if (peek() == '\'') {
      return quoted('\'');
    }
    while (p < s.length() && (Character.isLetterOrDigit(s.charAt(p)) || s.charAt(p) == '_')) {
      p++;
    }
    if (p == start || Character.isDigit(s.charAt(start))) {
      throw malformed("expected an attribute name");
    }
    return s.substring(start, p);
  }

  /** The value from here to the first of {@code ends} at depth 0 (or the end of the text), the end not consumed. */
  private ClassAd.Value valueUpTo(String ends) {
    skipSpace();
    int start = p;
    int end = scanTo(ends);
    String text = s.substring(start, end).strip();
    if (text.isEmpty()) {
      throw malformed("expected a value");
    }
    ClassAd.Value v = literal(start, end, text);
    p = end;
    return v;
  }

  /** {@code text} (at {@code start..end}) as a literal, list or nested ad when it is exactly one, else as an expression. */
  private ClassAd.Value literal(int start, int end, String text) {
    char c = text.charAt(0);
    if (c == '"') {
      p = start;
      String str = quoted('"');
      skipSpace();
      if (p == end || s.substring(p, end).isBlank()) {
        return new ClassAd.Str(str);
      }
      return new ClassAd.Expr(text); // "a" + ..., or a string and more
    }
    if ((c == '{' || c == '[') && closes(start, end)) {
      p = start + 1;
      if (c == '[') {
        return new ClassAd.Nested(adBody());
      }
      return list();
    }
    String lower = text.toLowerCase(Locale.ROOT);
    switch (lower) {
      case "true":
        return new ClassAd.Bool(true);
      case "false":
        return new ClassAd.Bool(false);
      case "undefined":
        return new ClassAd.Undefined();
      default:
        break;
    }
    if (text.matches("[+-]?\\d{1,18}")) {
      return new ClassAd.Int(Long.parseLong(text));
    }
    if (text.matches("[+-]?(\\d+\\.\\d*|\\.\\d+|\\d+)([eE][+-]?\\d+)?")) {
      return new ClassAd.Real(Double.parseDouble(text));
    }
    return new ClassAd.Expr(text);
  }

  /** Whether the bracket at {@code start} is closed by the last non-space character before {@code end}. */
  private boolean closes(int start, int end) {
    int save = p;
    p = start + 1;
    int close = scanTo(s.charAt(start) == '[' ? "]" : "}");
    p = save;
    return close < end && s.substring(close + 1, end).isBlank();
  }

  private ClassAd.Value list() {
    enter();
    List<ClassAd.Value> items = new ArrayList<>();
    skipSpace();
    if (peek() == '}') {
      p++;
      depth--;
      return new ClassAd.ListValue(items);
    }
    while (true) {
      items.add(valueUpTo(",}"));
      skipSpace();
      char c = peek();
      p++;
      if (c == '}') {
        depth--;
        return new ClassAd.ListValue(items);
      }
      if (c != ',') {
        throw malformed("expected ',' or '}' in a list");
      }
    }
  }

  /** The index of the first of {@code ends} at bracket depth 0 from here, past strings and comments; the text's end if none. */
  private int scanTo(String ends) {
    int save = p;
    int level = 0;
    while (p < s.length()) {
      char c = s.charAt(p);
      if (level == 0 && ends.indexOf(c) >= 0) {
        int at = p;
        p = save;
        return at;
      }
      if (c == '"' || c == '\'') {
        quoted(c);
        continue;
      }
      if (c == '/' && p + 1 < s.length() && (s.charAt(p + 1) == '/' || s.charAt(p + 1) == '*')) {
        skipSpace();
        continue;
      }
      if (c == '[' || c == '{' || c == '(') {
        if (++level > MAX_DEPTH) {
          throw malformed("nested deeper than " + MAX_DEPTH);
        }
      } else if (c == ']' || c == '}' || c == ')') {
        if (--level < 0) {
          throw malformed("unbalanced '" + c + "'");
        }
      }
      p++;
    }
    if (level != 0) {
      throw malformed("unclosed bracket");
    }
    int at = p;
    p = save;
    return ends.isEmpty() ? at : failAtEnd(ends);
  }

  private int failAtEnd(String ends) {
    p = s.length();
    throw malformed("the text ended where one of '" + ends + "' was expected");
  }

  /** A quoted string or name from here (the quote at {@code p}), its escapes resolved; {@code p} after the closing quote. */
  private String quoted(char quote) {
    StringBuilder b = new StringBuilder();
    p++;
    while (p < s.length()) {
      char c = s.charAt(p++);
      if (c == quote) {
        return b.toString();
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (p >= s.length()) {
        break;
      }
      char e = s.charAt(p++);
      switch (e) {
        case 'n' -> b.append('\n');
        case 't' -> b.append('\t');
        case 'r' -> b.append('\r');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        default -> {
          if (e >= '0' && e <= '7') {
            int v = e - '0';
            for (int i = 0; i < 2 && p < s.length() && s.charAt(p) >= '0' && s.charAt(p) <= '7' && v * 8 + (s.charAt(p) - '0') <= 0377; i++) {
              v = v * 8 + (s.charAt(p++) - '0');
            }
            b.append((char) v);
          } else {
            b.append(e); // \\ \" \' and any other character as itself
          }
        }
      }
    }
    throw malformed("unterminated " + (quote == '"' ? "string" : "quoted name"));
  }

  private void skipSpace() {
    while (p < s.length()) {
      char c = s.charAt(p);
      if (Character.isWhitespace(c)) {
        p++;
      } else if (c == '/' && p + 1 < s.length() && s.charAt(p + 1) == '/') {
        while (p < s.length() && s.charAt(p) != '\n') {
          p++;
        }
      } else if (c == '/' && p + 1 < s.length() && s.charAt(p + 1) == '*') {
        int close = s.indexOf("*/", p + 2);
        if (close < 0) {
          throw malformed("unterminated comment");
        }
        p = close + 2;
      } else {
        return;
      }
    }
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw malformed("nested deeper than " + MAX_DEPTH);
    }
  }

  private char peek() {
    if (p >= s.length()) {
      throw malformed("the text ended inside an ad");
    }
    return s.charAt(p);
  }

  private void expect(char c) {
    if (peek() != c) {
      throw malformed("expected '" + c + "', found '" + s.charAt(p) + "'");
    }
    p++;
  }

  private Malformed malformed(String what) {
    int line = 1;
    int col = 1;
    for (int i = 0; i < Math.min(p, s.length()); i++) {
      if (s.charAt(i) == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    return new Malformed("not a ClassAd at line " + line + ", column " + col + ": " + what);
  }

  private static String abbreviate(String text) {
    return text.length() > 40 ? text.substring(0, 40) + "..." : text;
  }
}
