package org.cairn.cli.output;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The CLI's JSON output. */
public final class Json {
  public static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}
}
