package org.cairn.cli.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.cairn.cli.context.GridPool;
import org.cairn.cli.context.QueuedStore;
import org.cairn.client.store.StoreOptions;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.crypto.Encryption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolResumeTest {
  @TempDir
  Path dir;

  private Path entry(Path spool, String name, String file, byte[] content) throws Exception {
    Path e = Files.createDirectories(spool.resolve(name));
    Files.write(e.resolve("image"), new byte[] {1, 2, 3});
    if (file != null) {
      Files.write(e.resolve(file), content);
    }
    return e;
  }

  @Test
  void entriesTheAgentCannotRunAreLeftInPlaceAndHalfWrittenOnesRemoved() throws Exception {
    Path spool = dir.resolve("agent.sock.spool");
    Files.createDirectories(spool);
    ObjectNodeBytes v2 = new ObjectNodeBytes(QueuedStore.of(Path.of("/x"), dir, Encryption.NONE,
        StoreOptions.defaults("heat", "n0", ImageSource.FILE, "h", ChunkCrypto.PLAIN)).toJson());
    Path old = entry(spool, "0001", "job", "heat\nn0\nstore\n/x\n--app\nheat\n".getBytes(StandardCharsets.UTF_8));
    Path newer = entry(spool, "0002", "store.json", v2.withVersion(2));
    Path garbled = entry(spool, "0003", "store.json", "{not json".getBytes(StandardCharsets.UTF_8));
    Path half = entry(spool, "0004", "store.json.tmp", new byte[] {'{'});
    Path noImage = Files.createDirectories(spool.resolve("0005"));
    try (AsyncStores stores = new AsyncStores(spool, new GridPool(null, null))) {
      assertThat(stores.resume()).isZero();
      assertThat(stores.pending()).isZero();
    }
    assertThat(old.resolve("job")).exists();
    assertThat(newer.resolve("store.json")).exists();
    assertThat(garbled.resolve("store.json")).exists();
    assertThat(old.resolve("image")).exists();
    assertThat(half).doesNotExist();
    assertThat(noImage).doesNotExist();
  }

  @Test
  void aStoreNamingNoGridStaysSpooledForAnAgentThatHasOne() throws Exception {
    Path spool = dir.resolve("spool");
    Files.createDirectories(spool);
    byte[] json = QueuedStore.of(Path.of("/x"), dir, Encryption.NONE,
        StoreOptions.defaults("heat", "n0", ImageSource.FILE, "h", ChunkCrypto.PLAIN)).toJson();
    Path e = entry(spool, "0001", "store.json", json);
    try (AsyncStores stores = new AsyncStores(spool, new GridPool(null, null))) {
      assertThat(stores.resume()).isZero();
    }
    assertThat(e.resolve("store.json")).exists();
  }

  /** A queued store's JSON with its version changed. */
  private record ObjectNodeBytes(byte[] json) {
    byte[] withVersion(int v) throws Exception {
      com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper();
      com.fasterxml.jackson.databind.node.ObjectNode n = (com.fasterxml.jackson.databind.node.ObjectNode) m.readTree(json);
      n.put("version", v);
      return m.writeValueAsBytes(n);
    }
  }
}
