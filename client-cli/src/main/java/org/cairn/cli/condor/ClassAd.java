package org.cairn.cli.condor;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A ClassAd as far as the plug-in needs one: attributes in the order given, looked up without regard to case (ClassAd
 * attribute names are not case-sensitive), each a literal {@link Value} or an expression kept as its text.
 */
public final class ClassAd {
  /** A ClassAd value: the literals, lists and nested ads; any other expression is kept as text ({@link Expr}). */
  public sealed interface Value permits Str, Int, Real, Bool, Undefined, ListValue, Nested, Expr {}

  /** A string literal. */
  public record Str(String text) implements Value {}

  /** An integer literal. */
  public record Int(long value) implements Value {}

  /** A real literal. */
  public record Real(double value) implements Value {}

  /** {@code true} or {@code false}. */
  public record Bool(boolean value) implements Value {}

  /** {@code undefined}. */
  public record Undefined() implements Value {}

  /** {@code { a, b, ... }}. */
  public record ListValue(List<Value> items) implements Value {
    public ListValue {
      items = List.copyOf(items);
    }
  }

  /** {@code [ a = ...; ... ]} inside an ad. */
  public record Nested(ClassAd ad) implements Value {}

  /** An expression that is not a literal (an operator, a reference, a call), as written. */
  public record Expr(String text) implements Value {}

  private record Entry(String name, Value value) {}

  private final Map<String, Entry> attributes = new LinkedHashMap<>();

  /** Sets {@code name} (replacing an attribute of the same name in any case, keeping its place). */
  public ClassAd put(String name, Value value) {
    String key = name.toLowerCase(Locale.ROOT);
    Entry old = attributes.get(key);
    attributes.put(key, new Entry(old == null ? name : old.name(), value));
    return this;
  }

  public ClassAd put(String name, String text) {
    return put(name, new Str(text));
  }

  public ClassAd put(String name, long value) {
    return put(name, new Int(value));
  }

  public ClassAd put(String name, boolean value) {
    return put(name, new Bool(value));
  }

  /** The value of {@code name} in any case, or null. */
  public Value get(String name) {
    Entry e = attributes.get(name.toLowerCase(Locale.ROOT));
    return e == null ? null : e.value();
  }

  /** The string literal {@code name} holds, or null when it is absent or not a string. */
  public String string(String name) {
    return get(name) instanceof Str s ? s.text() : null;
  }

  public boolean has(String name) {
    return attributes.containsKey(name.toLowerCase(Locale.ROOT));
  }

  /** The attributes' names as first given, in order. */
  public List<String> names() {
    return attributes.values().stream().map(Entry::name).toList();
  }

  public Map<String, Value> asMap() {
    Map<String, Value> out = new LinkedHashMap<>();
    attributes.values().forEach(e -> out.put(e.name(), e.value()));
    return Collections.unmodifiableMap(out);
  }

  public int size() {
    return attributes.size();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClassAd other && asMap().equals(other.asMap());
  }

  @Override
  public int hashCode() {
    return asMap().hashCode();
  }

  @Override
  public String toString() {
    return ClassAdWriter.write(this);
  }
}
