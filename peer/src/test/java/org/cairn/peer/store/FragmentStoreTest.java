package org.cairn.peer.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.cairn.core.CorruptDataException;
import org.cairn.core.compress.Compressor;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.protocol.FragmentKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDB;

public class FragmentStoreTest {
  @TempDir
  Path dir;

  public static List<byte[]> fragmentsOf(long seed, int size) {
    byte[] chunk = new byte[size];
    new Random(seed).nextBytes(chunk);
    Fragment[] fs = new ChunkCodec(Compressor.parse("none"), Redundancy.parse("code:3+2")).encode(ChunkId.of(chunk), chunk, size);
    List<byte[]> out = new ArrayList<>();
    for (Fragment f : fs) {
      out.add(f.toBytes());
    }
    return out;
  }

  public static FragmentKey keyOf(byte[] fragment) throws CorruptDataException {
    Fragment f = Fragment.parse(fragment);
    return new FragmentKey(f.chunkId(), f.index());
  }

  @Test
  void putGetDelete_andUsageSurvivesReopen() throws IOException {
    List<byte[]> fragments = fragmentsOf(1, 100_000);
    long total = fragments.stream().mapToLong(b -> b.length).sum();
    try (FragmentStore store = FragmentStore.open(dir)) {
      assertThat(store.putAll(fragments)).isEqualTo(total);
      assertThat(store.putAll(fragments)).as("re-put adds nothing").isZero();
      assertThat(store.usedBytes()).isEqualTo(total);
      assertThat(store.fragmentCount()).isEqualTo(5);
    }
    try (FragmentStore store = FragmentStore.open(dir)) {
      assertThat(store.usedBytes()).isEqualTo(total);
      for (byte[] f : fragments) {
        assertThat(store.get(keyOf(f))).isEqualTo(f);
        assertThat(store.contains(keyOf(f))).isTrue();
      }
      assertThat(store.delete(List.of(keyOf(fragments.get(0)), keyOf(fragments.get(1))))).isEqualTo(2);
      assertThat(store.get(keyOf(fragments.get(0)))).isNull();
      assertThat(store.usedBytes()).isEqualTo(total - fragments.get(0).length - fragments.get(1).length);
      assertThat(store.inventory(null, 100)).hasSize(3);
    }
  }

  @Test
  void putAll_storesNothingIfAnyFragmentIsBad() throws IOException {
    List<byte[]> fragments = fragmentsOf(2, 50_000);
    byte[] bad = fragments.get(3).clone();
    bad[bad.length - 10] ^= 1;
    List<byte[]> batch = new ArrayList<>(fragments);
    batch.set(3, bad);
    try (FragmentStore store = FragmentStore.open(dir)) {
      assertThatThrownBy(() -> store.putAll(batch)).isInstanceOf(CorruptDataException.class).hasMessageContaining("CRC32C");
      assertThat(store.fragmentCount()).isZero();
      assertThat(store.usedBytes()).isZero();
      List<byte[]> truncated = List.of(java.util.Arrays.copyOf(fragments.get(0), 100));
      assertThatThrownBy(() -> store.putAll(truncated)).hasMessageContaining("truncated");
    }
  }

  @Test
  void get_dropsAFragmentThatRottedOnDisk() throws Exception {
    List<byte[]> fragments = fragmentsOf(3, 60_000);
    FragmentKey key = keyOf(fragments.get(2));
    try (FragmentStore store = FragmentStore.open(dir)) {
      store.putAll(fragments);
    }
    // rot the stored value behind the store's back, under the right key
    byte[] rotten = fragments.get(2).clone();
    rotten[Fragment.HEADER_SIZE + 5] ^= 0x10;
    RocksDB.loadLibrary();
    try (org.rocksdb.DBOptions o = new org.rocksdb.DBOptions();
        org.rocksdb.ColumnFamilyOptions cf = new org.rocksdb.ColumnFamilyOptions()) {
      List<org.rocksdb.ColumnFamilyHandle> handles = new ArrayList<>();
      try (RocksDB db = RocksDB.open(o, dir.toString(), List.of(
          new org.rocksdb.ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cf),
          new org.rocksdb.ColumnFamilyDescriptor("fragments".getBytes(), cf),
          new org.rocksdb.ColumnFamilyDescriptor("sizes".getBytes(), cf)), handles)) {
        db.put(handles.get(1), key.toBytes(), rotten);
        handles.forEach(org.rocksdb.ColumnFamilyHandle::close);
      }
    }
    try (FragmentStore store = FragmentStore.open(dir)) {
      assertThatThrownBy(() -> store.get(key)).isInstanceOf(CorruptDataException.class).hasMessageContaining("dropped");
      assertThat(store.get(key)).isNull();
      assertThat(store.fragmentCount()).isEqualTo(4);
    }
  }

  @Test
  void inventory_pagesInKeyOrder() throws IOException {
    try (FragmentStore store = FragmentStore.open(dir)) {
      for (int c = 0; c < 5; c++) {
        store.putAll(fragmentsOf(10 + c, 1000));
      }
      List<FragmentKey> all = new ArrayList<>();
      FragmentKey after = null;
      List<FragmentKey> page;
      while (!(page = store.inventory(after, 7)).isEmpty()) {
        all.addAll(page);
        after = page.get(page.size() - 1);
      }
      assertThat(all).hasSize(25).isSorted().doesNotHaveDuplicates();
    }
  }
}
