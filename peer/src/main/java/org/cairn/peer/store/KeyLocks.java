package org.cairn.peer.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.cairn.core.protocol.FragmentKey;

/**
 * Which fragment keys a write, delete or compaction move is working on. A call claims all its keys
 * at once, waiting (without holding any) while another call holds one of them, so two calls that
 * share a key take turns and the store's accounting, which reads each key's old location, stays
 * exact. Calls with disjoint keys never wait for each other.
 *
 * Keys are taken in their natural order, and a call that meets a held key gives back what it took
 * and wakes whoever met one of those meanwhile, before it waits: otherwise two calls wanting the same
 * keys in opposite orders could each wait for the other's half-made claim forever (KeyLocksTest).
 */
final class KeyLocks {
  /** A set of keys held by one call; release it in a finally block. */
  final class Claim implements AutoCloseable {
    private final List<FragmentKey> keys;
    private final CompletableFuture<Void> done;

    private Claim(List<FragmentKey> keys, CompletableFuture<Void> done) {
      this.keys = keys;
      this.done = done;
    }

    @Override
    public void close() {
      for (FragmentKey k : keys) {
        busy.remove(k, done);
      }
      done.complete(null);
    }
  }

  private final ConcurrentHashMap<FragmentKey, CompletableFuture<Void>> busy = new ConcurrentHashMap<>();

  /** Claims every key (duplicates allowed, any order), waiting while another claim holds one of them. */
  Claim claim(List<FragmentKey> keys) throws IOException {
    List<FragmentKey> ordered = new ArrayList<>(new java.util.TreeSet<>(keys));
    while (true) {
      CompletableFuture<Void> mine = new CompletableFuture<>();
      CompletableFuture<Void> other = null;
      List<FragmentKey> claimed = new ArrayList<>(ordered.size());
      for (FragmentKey k : ordered) {
        CompletableFuture<Void> prev = busy.putIfAbsent(k, mine);
        if (prev != null) {
          other = prev;
          break;
        }
        claimed.add(k);
      }
      if (other == null) {
        return new Claim(claimed, mine);
      }
      for (FragmentKey k : claimed) {
        busy.remove(k, mine);
      }
      mine.complete(null); // whoever met one of these keys meanwhile tries again
      try {
        other.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for another write of the same fragment");
      } catch (ExecutionException e) {
        throw new IllegalStateException(e); // claims complete normally
      }
    }
  }

  /** Keys held right now (for tests). */
  int held() {
    return busy.size();
  }
}
