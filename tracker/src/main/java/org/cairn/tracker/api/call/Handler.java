package org.cairn.tracker.api.call;

import java.io.IOException;
import org.cairn.core.placement.NotEnoughHostsException;

/**
 * What serves one endpoint, given a call already authorized: its answer (a record answered as JSON
 * with status 200, or a whole {@link Response}). Handlers hold no rules about who may call them.
 */
@FunctionalInterface
public interface Handler<R> {
  Object handle(Call<R> call) throws ApiException, IOException, NotEnoughHostsException;
}
