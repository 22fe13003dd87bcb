/**
 * The peer's fragment store, split the way BookKeeper splits its ledger storage: an append-only log
 * of fragments in segment files ({@link org.cairn.peer.store.SegmentLog}, written with O_DIRECT by
 * {@link org.cairn.peer.store.DirectAppender}), an index from fragment key to location in RocksDB
 * ({@link org.cairn.peer.store.FragmentIndex}; its native options in {@code IndexOptions}, the
 * conversion of format-2 stores in {@code Format2Conversion}), a compactor that rewrites segments
 * whose bytes are mostly dead ({@link org.cairn.peer.store.Compactor}), and
 * {@link org.cairn.peer.store.FragmentStore} over them with one lifecycle: a PUT's verified, synced
 * write is {@code BatchWrites}, a full disk {@code SpaceGuard}'s, the choice between direct and
 * page-cache appends {@code SegmentAppends}'. Every fragment is verified on write and on read.
 */
package org.cairn.peer.store;
