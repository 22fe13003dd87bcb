package org.cairn.tracker.api.call;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.cairn.core.api.Endpoint;
import org.cairn.core.api.Endpoints;

/**
 * Which handler serves each endpoint of {@link Endpoints}: the routes classes bind theirs here. Only
 * endpoints of the table may be bound (so nothing is served without a declared rule), each once.
 */
public final class Bindings {
  private final Map<Endpoint<?, ?>, Handler<?>> handlers = new LinkedHashMap<>();

  public <R> void on(Endpoint<R, ?> endpoint, Handler<R> handler) {
    if (!Endpoints.ALL.contains(endpoint)) {
      throw new IllegalArgumentException(endpoint + " is not in the endpoint table");
    }
    if (endpoint.callers().isEmpty()) {
      throw new IllegalArgumentException(endpoint + " declares nobody who may call it");
    }
    if (handlers.putIfAbsent(endpoint, handler) != null) {
      throw new IllegalArgumentException(endpoint + " is bound twice");
    }
  }

  @SuppressWarnings("unchecked")
  public <R> Handler<R> handler(Endpoint<R, ?> endpoint) {
    return (Handler<R>) handlers.get(endpoint);
  }

  /** Every bound endpoint. */
  public Map<Endpoint<?, ?>, Handler<?>> all() {
    return Collections.unmodifiableMap(handlers);
  }
}
