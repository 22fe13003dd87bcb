package org.cairn.cli;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The CLI's JSON output. */
final class Json {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}
}
