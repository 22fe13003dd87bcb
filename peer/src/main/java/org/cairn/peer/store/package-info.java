/**
 * The peer's fragment store, split the way BookKeeper splits its ledger storage: an append-only log
 * of fragments in segment files ({@link org.cairn.peer.store.segment}: the bytes, written with
 * O_DIRECT where the file system allows it), an index from fragment key to location in RocksDB
 * ({@link org.cairn.peer.store.index}: the index, its native options, the conversion of format-2
 * stores), and here {@link org.cairn.peer.store.FragmentStore} over them with one lifecycle: a PUT's
 * verified, synced write is {@code BatchWrites}, the rewriting of segments whose bytes are mostly
 * dead {@code Compactor}, the live bytes per segment {@code LiveBytes}, a full disk
 * {@code SpaceGuard}'s, soft writes {@code SoftWrites}'. Every fragment is verified on write and on
 * read. The dependencies run one way: store, then index, then segment.
 */
package org.cairn.peer.store;
