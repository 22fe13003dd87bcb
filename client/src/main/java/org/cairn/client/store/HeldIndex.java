package org.cairn.client.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.hash.ChunkId;

/**
 * A store's dedup index (the chunks its app holds coded at least as strongly as it asks), asked for on a thread of its
 * own as the store starts, so the tracker answers it while the store is being placed: the two calls were one after the
 * other on the store's path (8-60 ms the second, by the debug log's "dedup index").
 */
final class HeldIndex {
  private HeldIndex() {}

  /** Asks the tracker now; {@link #await} gives the answer. */
  static CompletableFuture<Set<ChunkId>> ask(TrackerClient tracker, String app, String atLeast) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return new HashSet<>(tracker.heldChunks(app, atLeast));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, r -> {
      Thread t = new Thread(r, "cairn-store-held");
      t.setDaemon(true);
      t.start();
    });
  }

  /** The answer {@link #ask} got (a set the store may add to), or its failure as the call would have thrown it. */
  static Set<ChunkId> await(CompletableFuture<Set<ChunkId>> call) throws IOException {
    try {
      return call.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof UncheckedIOException u) {
        throw u.getCause();
      }
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }
}
