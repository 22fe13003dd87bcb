package org.cairn.tracker.api.call;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Map;
import org.cairn.core.api.Endpoint;
import org.cairn.core.protocol.FragmentKey;

/** What every route does with a request and its answer: read the body, check fields and parameters, answer JSON. */
public final class Requests {
  static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false);

  private Requests() {
  }

  /** The body as {@code type}, or a 400 when it is empty or JSON null. */
  public static <T> T read(byte[] body, Class<T> type) throws IOException, ApiException {
    if (body == null || body.length == 0) {
      throw new ApiException(400, "request body is empty; expected JSON");
    }
    T value = JSON.readValue(body, type);
    if (value == null) {
      throw new ApiException(400, "request body is null; expected a JSON object");
    }
    return value;
  }

  /**
   * The body of a call to {@code e} as its request record: null when it takes none (whatever was
   * sent) or when an optional one is empty; a 413 over its limit, a 400 when a required one is empty.
   */
  public static <R> R decode(Endpoint<R, ?> e, byte[] body) throws IOException, ApiException {
    if (!e.hasBody()) {
      return null;
    }
    if (body != null && body.length > e.maxBody()) {
      throw new ApiException(413, "request body is larger than " + e.name() + " takes (" + e.maxBody() + " bytes)");
    }
    if ((body == null || body.length == 0) && e.isBodyOptional()) {
      return null;
    }
    return read(body, e.request());
  }

  public static Response json(int status, Object value) {
    try {
      return new Response(status, Response.JSON, JSON.writeValueAsBytes(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("response does not serialise", e);
    }
  }

  /** A body field that must be present and not blank. */
  public static String required(String value, String name) throws ApiException {
    if (value == null || value.isBlank()) {
      throw new ApiException(400, "field '" + name + "' is required");
    }
    return value;
  }

  /** A query parameter that must be present and not blank. */
  public static String required(Map<String, String> query, String name) throws ApiException {
    String v = query.get(name);
    if (v == null || v.isBlank()) {
      throw new ApiException(400, "query parameter '" + name + "' is required");
    }
    return v;
  }

  public static long parseLong(String s, String name) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a number, was '" + s + "'");
    }
  }

  public static long parseStep(String s) {
    try {
      long v = Long.parseLong(s);
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException("step must be a positive number or 'latest', was '" + s + "'");
  }

  /** A fragment key from 74 hex digits (chunk id + index + tag), or a 400 naming the bad value. */
  public static byte[] fragmentKey(String hex) throws ApiException {
    if (hex == null || hex.length() != 2 * FragmentKey.SIZE || !hex.matches("[0-9a-fA-F]*")) {
      throw new ApiException(400, "fragment key must be " + 2 * FragmentKey.SIZE + " hex digits (chunk id + index + tag), was '" + hex + "'");
    }
    return java.util.HexFormat.of().parseHex(hex);
  }
}
