package org.cairn.cli.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.cairn.client.store.StoreOptions;
import org.cairn.core.chunk.Chunking;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.compress.Compressor;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.manifest.Manifest;
import org.junit.jupiter.api.Test;

class QueuedStoreTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static StoreOptions options() {
    return StoreOptions.defaults("heat", "n0", ImageSource.FILE, "host-1", ChunkCrypto.PLAIN)
        .withCoding(Redundancy.parse("cauchy:4+2"), Compressor.parse("zstd:5")).withChunks(2 << 20, Chunking.CDC)
        .withPlacement("random:7", 3).withTimeouts(null, Duration.ofSeconds(90)).withHostWait(Duration.ofMillis(1500)).withDelta(false)
        .withWriteMode("optimistic").withSet(new Manifest.SetPart("epoch-3", 2, 5));
  }

  @Test
  void aQueuedStoreReadsBackAsItWasWritten() throws Exception {
    QueuedStore q = QueuedStore.of(Path.of("/spool/0001/image"), Path.of("/home/u/.config/cairn/keys"), Encryption.AES_SIV, options());
    QueuedStore back = QueuedStore.fromJson(q.toJson());
    assertThat(back.toJson()).isEqualTo(q.toJson());
    assertThat(back.version()).isEqualTo(QueuedStore.VERSION);
    assertThat(back.image()).isEqualTo(q.image());
    assertThat(back.keyDir()).isEqualTo(q.keyDir());
    assertThat(back.sealing()).isEqualTo(Encryption.AES_SIV);
    StoreOptions o = back.options();
    assertThat(o.redundancy().spec()).isEqualTo("cauchy:4+2");
    assertThat(o.compressor().spec()).isEqualTo("zstd:5");
    assertThat(o.chunkSize()).isEqualTo(2 << 20);
    assertThat(o.chunking()).isEqualTo(Chunking.CDC);
    assertThat(o.placement()).isEqualTo("random:7");
    assertThat(o.threads()).isEqualTo(3);
    assertThat(o.probeAfter()).isNull();
    assertThat(o.commitTimeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(o.hostWait()).isEqualTo(Duration.ofMillis(1500));
    assertThat(o.delta()).isFalse();
    assertThat(o.writeMode()).isEqualTo("optimistic");
    assertThat(o.set()).isEqualTo(new Manifest.SetPart("epoch-3", 2, 5));
    assertThat(o.clientId()).isEqualTo("host-1");
    assertThat(JSON.readTree(q.toJson()).get("version").asInt()).isEqualTo(1);
  }

  @Test
  void theSpoolHoldsNoKeyOnlyTheSealingToFindOneBy() throws Exception {
    QueuedStore q = QueuedStore.of(Path.of("/s/image"), Path.of("/k"), Encryption.AES_GCM, options());
    assertThat(q.options().crypto()).isSameAs(ChunkCrypto.PLAIN);
    assertThat(JSON.readTree(q.toJson()).get("encryption").asText()).isEqualTo("aes-gcm");
    assertThatThrownBy(() -> q.sealedWith(ChunkCrypto.PLAIN)).hasMessageContaining("sealed aes-gcm");
    assertThat(QueuedStore.of(Path.of("/s/image"), Path.of("/k"), Encryption.NONE, options()).sealedWith(ChunkCrypto.PLAIN).crypto())
        .isSameAs(ChunkCrypto.PLAIN);
  }

  @Test
  void pathsWithOddCharactersComeBackTheSame() throws Exception {
    Path image = Path.of("/tmp/a dir/\"quoted\" \\ back\nnew line/ünï-€ 😀/im'age");
    Path keys = Path.of("/home/x y/{keys}/%20/$HOME");
    QueuedStore back = QueuedStore.fromJson(QueuedStore.of(image, keys, Encryption.NONE, options()).toJson());
    assertThat(back.image()).isEqualTo(image);
    assertThat(back.keyDir()).isEqualTo(keys);
  }

  @Test
  void aRecordOfAnotherVersionIsRefusedSayingWhich() throws Exception {
    ObjectNode n = (ObjectNode) JSON.readTree(QueuedStore.of(Path.of("/s/image"), Path.of("/k"), Encryption.NONE, options()).toJson());
    n.put("version", 2);
    assertThatThrownBy(() -> QueuedStore.fromJson(JSON.writeValueAsBytes(n))).isInstanceOf(QueuedStore.Refused.class)
        .hasMessage("a queued store of version 2 (this cairn reads version 1 only)");
  }

  @Test
  void malformedRecordsAreRefusedInOneLine() throws Exception {
    ObjectNode good = (ObjectNode) JSON.readTree(QueuedStore.of(Path.of("/s/image"), Path.of("/k"), Encryption.NONE, options()).toJson());
    ObjectNode missing = good.deepCopy();
    missing.remove("threads");
    ObjectNode badValue = good.deepCopy();
    badValue.put("redundancy", "code:0+0");
    ObjectNode extra = good.deepCopy();
    extra.put("surprise", true);
    ObjectNode noVersion = good.deepCopy();
    noVersion.remove("version");
    byte[][] bad = {"store --app heat".getBytes(StandardCharsets.UTF_8), "{\"version\":1,".getBytes(StandardCharsets.UTF_8),
        "[1]".getBytes(StandardCharsets.UTF_8), new byte[0], JSON.writeValueAsBytes(missing), JSON.writeValueAsBytes(badValue),
        JSON.writeValueAsBytes(extra), JSON.writeValueAsBytes(noVersion)};
    for (byte[] b : bad) {
      assertThatThrownBy(() -> QueuedStore.fromJson(b)).as(new String(b, StandardCharsets.UTF_8)).isInstanceOf(QueuedStore.Refused.class)
          .satisfies(e -> assertThat(e.getMessage()).isNotBlank().doesNotContain("\n"));
    }
  }
}
